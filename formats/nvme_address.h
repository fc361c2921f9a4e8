/* What the nvme list-subsys readers (text and JSON) share: a path's
 * address as the kernel prints it in sysfs, "key=value" fields joined by
 * ',' ("traddr=10.0.0.1,trsvcid=4420,src_addr=10.0.0.2"), or by blanks
 * in older nvme-cli; traddr, trsvcid, host_traddr, src_addr and
 * host_iface are kept. */
#ifndef PD_NVME_ADDRESS_H
#define PD_NVME_ADDRESS_H

#include <stddef.h>
#include "pathdoctor/model.h"

void pd_nvme_address(struct pd_nvme_path *p, struct pd_arena *a,
    const char *s, size_t n);

#endif

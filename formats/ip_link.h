/* What ip-link (formats/ip_link.c) shares with ip-addr
 * (formats/ip_addr.c): `ip addr` prints ip link's blocks with address
 * lines among them, so the ip-addr reader runs ip-link's parser and
 * takes the "inet"/"inet6" lines through a hook. */
#ifndef PD_IP_LINK_H
#define PD_IP_LINK_H

#include <stddef.h>
#include <stdint.h>
#include "pathdoctor/format.h"

/* An address line t (blanks skipped) of interface ifname. */
typedef void (*pd_ip_addr_hook)(void *ctx, const struct pd_member *m,
    struct pd_host *h, struct pd_diag *d, const char *ifname,
    const char *t, uint32_t line_no, const char *line, size_t len);

/* ip link's parser; addr NULL ignores address lines as ip link has
 * none, else each goes to addr(ctx, ...). */
enum pd_status pd_ip_link_parse(const struct pd_member *m,
    struct pd_input *in, struct pd_host *h, struct pd_diag *d,
    pd_ip_addr_hook addr, void *ctx);

#endif

/* The facts a fleet database keeps per host that the rest of the JSON
 * report only implies: each PCIe function's MaxPayload against what its
 * device capability allows, and each interface's driver and firmware
 * (ethtool -i).  Both arrays are always present, empty when the bundle
 * has no lspci -vv or ethtool -i, so a reader need not test for them. */
#include "report/escape.h"
#include "report/json_parts.h"

/* lspci prints sizes in bytes; 0 or less is "not read". */
static json_t *
bytes_or_null(int v)
{
	return v > 0 ? json_integer(v) : json_null();
}

static json_t *
pcie_device(const struct pd_pcidev *d)
{
	json_t *j = json_object();

	json_object_set_new(j, "bdf", pd_json_str(d->bdf));
	json_object_set_new(j, "description", pd_json_str_or_null(d->desc));
	json_object_set_new(j, "driver", pd_json_str_or_null(d->driver));
	json_object_set_new(j, "max_payload", bytes_or_null(d->mps));
	json_object_set_new(j, "max_payload_cap", bytes_or_null(d->mps_cap));
	json_object_set_new(j, "max_read_request", bytes_or_null(d->mrrs));
	return j;
}

static json_t *
driver(const struct pd_netdev *nd)
{
	json_t *j = json_object();

	json_object_set_new(j, "netdev", pd_json_str(nd->name));
	json_object_set_new(j, "driver", pd_json_str_or_null(nd->driver));
	json_object_set_new(j, "version",
	    pd_json_str_or_null(nd->driver_version));
	json_object_set_new(j, "firmware", pd_json_str_or_null(nd->firmware));
	json_object_set_new(j, "bus_info", pd_json_str_or_null(nd->bus_info));
	return j;
}

void
pd_json_host_facts(json_t *host, const struct pd_host *h)
{
	json_t *pcie = json_array(), *drivers = json_array();

	for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		if (d->has_express)
			json_array_append_new(pcie, pcie_device(d));
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next)
		if (nd->driver)
			json_array_append_new(drivers, driver(nd));
	json_object_set_new(host, "pcie", pcie);
	json_object_set_new(host, "drivers", drivers);
}

/* PCIe changes per device, by address: MaxPayload, MaxReadReq and the
 * link as trained; a PCIe device present on one side only. */
#include <string.h>
#include "diff/diff.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"

static const char *
bytes(struct pd_arena *a, int v)
{
	return v > 0 ? pd_arena_printf(a, "%d bytes", v) : NULL;
}

static const char *
link_of(struct pd_arena *a, const struct pd_pcidev *d)
{
	char ln[32];

	if (d->lnk_down)
		return "down";
	if (d->lnksta_mts <= 0)
		return NULL;
	pd_link_name(ln, sizeof(ln), d->lnksta_mts, d->lnksta_width);
	return pd_arena_printf(a, "%s%s%s%s", ln, d->lnksta_mark ? " (" : "",
	    d->lnksta_mark ? d->lnksta_mark : "", d->lnksta_mark ? ")" : "");
}

static void
device(struct pd_changes *c, const struct pd_pcidev *x,
    const struct pd_pcidev *y)
{
	struct pd_evidence eb = { .member = x->member },
		ea = { .member = y->member };

	pd_change_add(c, "maxpayload", x->bdf, bytes(c->a, x->mps),
	    bytes(c->a, y->mps), &eb, &ea);
	pd_change_add(c, "maxreadreq", x->bdf, bytes(c->a, x->mrrs),
	    bytes(c->a, y->mrrs), &eb, &ea);
	pd_change_add(c, "link", x->bdf, link_of(c->a, x), link_of(c->a, y),
	    &eb, &ea);
}

static const char *
present(const struct pd_pcidev *d)
{
	return d->desc ? d->desc : d->class_name ? d->class_name : "present";
}

/* Both lists are sorted by address: one merge walk. */
void
pd_changes_pcie(struct pd_changes *c, const struct pd_host *b,
    const struct pd_host *a)
{
	const struct pd_pcidev *x = b->pcidevs, *y = a->pcidevs;

	while (x || y) {
		int d = !x ? 1 : !y ? -1 : strcmp(x->bdf, y->bdf);

		if (d == 0 && x->has_express && y->has_express)
			device(c, x, y);
		else if (d < 0 && x->has_express)
			pd_change_add(c, "pcie-device", x->bdf, present(x), NULL,
			    &(struct pd_evidence){ .member = x->member }, NULL);
		else if (d > 0 && y->has_express)
			pd_change_add(c, "pcie-device", y->bdf, NULL, present(y),
			    NULL, &(struct pd_evidence){ .member = y->member });
		if (d <= 0)
			x = x->next;
		if (d >= 0)
			y = y->next;
	}
}

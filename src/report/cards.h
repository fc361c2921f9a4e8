/* The per-card table as text, shared by the Markdown and terminal
 * renderers (src/report/cards.c). */
#ifndef PD_CARDS_H
#define PD_CARDS_H

struct pd_pcidev;

/* One row of the per-card table, as text for the renderers. */
struct pd_card_row {
	char pf[16], netdev[24], link[48], ceiling[48], port[24], rx[48];
	char lro[8], pause[24];
};

void pd_card_row(const struct pd_pcidev *pf, struct pd_card_row *r);

#endif

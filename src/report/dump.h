/* --dump-model: a deterministic text dump of every model field, the
 * golden target for readers (src/report/dump.c). */
#ifndef PD_DUMP_H
#define PD_DUMP_H

#include <stdio.h>

struct pd_model;

void pd_model_dump(const struct pd_model *m, FILE *out);

#endif

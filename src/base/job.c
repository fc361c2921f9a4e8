/* See pathdoctor/job.h. */
#include <stddef.h>
#include "pathdoctor/job.h"
#include "pathdoctor/model.h"

static void *
job_main(void *arg)
{
	struct pd_job *j = arg;

	j->run(j->ctx);
	return NULL;
}

bool
pd_job_start(struct pd_job **list, struct pd_job *j)
{
	if (pthread_create(&j->thread, NULL, job_main, j) != 0)
		return false;
	j->next = *list;
	*list = j;
	return true;
}

/* The list reversed, so that jobs are done in the order started. */
static struct pd_job *
oldest_first(struct pd_job *j)
{
	struct pd_job *r = NULL;

	while (j) {
		struct pd_job *next = j->next;

		j->next = r;
		r = j;
		j = next;
	}
	return r;
}

void
pd_model_join(struct pd_model *m)
{
	for (struct pd_host *h = m->hosts; h; h = h->next) {
		struct pd_job *j = oldest_first(h->jobs);

		h->jobs = NULL;
		for (; j; j = j->next) {
			pthread_join(j->thread, NULL);
			j->done(j->ctx);
		}
	}
}

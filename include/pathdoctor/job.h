/* Work a reader hands to a thread of its own while the walk goes on:
 * the reader owns everything the work reads and writes (a copy of its
 * member, tables of its own), and what the work made is given to the
 * host on the walker's thread once it is joined, before anything after
 * the walk reads the host (pd_model_join).  --one-thread: none. */
#ifndef PD_JOB_H
#define PD_JOB_H

#include <pthread.h>
#include <stdbool.h>

struct pd_model;

struct pd_job {
	void (*run)(void *ctx);		/* on the job's thread */
	void (*done)(void *ctx);	/* on the walker's, once joined */
	void *ctx;
	pthread_t thread;
	struct pd_job *next;		/* the host's, newest first */
};

/* Starts j (run, done and ctx filled) on a thread and puts it on the
 * list; false when no thread could be had: the caller does the work
 * itself then. */
bool pd_job_start(struct pd_job **list, struct pd_job *j);
/* Joins every job of every host of m, oldest first, each one's done
 * after its join. */
void pd_model_join(struct pd_model *m);
#endif

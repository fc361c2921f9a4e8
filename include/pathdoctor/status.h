/* Status codes, array size and printf-attribute helpers shared by every file. */
#ifndef PD_STATUS_H
#define PD_STATUS_H

/* Ordered so that "worse" compares lower, as in libarchive. */
enum pd_status {
	PD_OK = 0,
	PD_WARN = -20,
	PD_FAILED = -25,
	PD_FATAL = -30,
};

#define PD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PD_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

const char *pd_status_name(enum pd_status s);	/* "ok", "warn", "failed" */

#endif

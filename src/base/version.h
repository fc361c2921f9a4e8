/* The release, also reported in JSON output. */
#ifndef PD_VERSION_H
#define PD_VERSION_H

#define PD_VERSION "0.1.0"
#define PD_JSON_SCHEMA 1

#endif

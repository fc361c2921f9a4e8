/* pathdoctor ingest and pathdoctor query. */
#ifndef PD_FLEET_CLI_H
#define PD_FLEET_CLI_H

#include <stdbool.h>

/* argv[0] names the subcommand; the exit status to end with. */
int pd_fleet_main(int argc, char **argv);
bool pd_fleet_is_command(const char *arg);

#endif

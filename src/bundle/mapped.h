/* A directory bundle's file mapped whole where it lies (bundle.c's
 * fd_whole, for a reader that wants random access, an ELF file's
 * image): what a SIGBUS under that mapping means, said in place of a
 * crash. */
#ifndef PD_MAPPED_H
#define PD_MAPPED_H

#include <signal.h>

/* While a file is mapped: a SIGBUS (the file cut shorter by another
 * program under the mapping) says so, naming path, and exits with 3, in
 * place of a crash; old keeps the handler before, which unwatch puts
 * back. */
void pd_mapped_watch(const char *path, struct sigaction *old);
void pd_mapped_unwatch(const struct sigaction *old);

#endif

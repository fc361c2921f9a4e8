/* Shell lines of the Markdown report's ```sh blocks, cut to fit a forum
 * post's width (src/report/md_wrap.c). */
#ifndef PD_MD_WRAP_H
#define PD_MD_WRAP_H

struct pd_arena;

#define PD_MD_WIDTH 80

/* line as one or more lines ("\n" between them), none longer than width
 * where the line allows it: a command is cut at spaces outside quotes
 * and before its trailing comment, each cut line ending in " \" and the
 * next indented by four spaces; a comment line ("# ...") goes on as
 * comment lines ("#   ..."), since a backslash would not continue it.
 * A word longer than the width, or a quoted string, stays whole, so such
 * a line stays long. */
const char *pd_md_wrap_sh(struct pd_arena *a, const char *line,
    unsigned width);

/* The first of n fix lines that is not a comment, its blanks outside
 * quotes squeezed to one space; NULL when every line is a comment. */
const char *pd_md_first_command(struct pd_arena *a,
    const char *const *lines, unsigned n);

#endif

/* Text laid out for a terminal of a given width (src/report/wrap.c):
 * prose wrapped at spaces with a hanging indent, shell commands cut only
 * where a shell takes a "\" line continuation, tables laid out from
 * their cells' widths.  Every text handed in is already escaped for the
 * terminal (pd_term_text) and holds no colour: the callers print the
 * colours around it.  A UTF-8 sequence counts as one column. */
#ifndef PD_WRAP_H
#define PD_WRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pd_arena;

#define PD_WIDTH_DEFAULT 80
#define PD_WIDTH_MIN 20		/* --width below this is refused */
#define PD_WIDTH_MAX 1000

/* Columns of s (of its first n bytes). */
unsigned pd_cols(const char *s);
unsigned pd_ncols(const char *s, size_t n);

/* Prose printed from column col of the current line (what the caller
 * printed before it), wrapped at spaces to width columns, continuation
 * lines indented by indent; ends the line.  Only a word longer than a
 * whole line is broken.  A newline in text starts a new line. */
void pd_wrap_text(FILE *out, unsigned width, unsigned col, unsigned indent,
    const char *text);

/* A shell command line, not reflowed: cut at a space outside quotes with
 * " \" (continuations at indent + 2), or left long where it has none; a
 * comment ("# ...") wraps as prose, each continuation a comment too. */
void pd_wrap_code(FILE *out, unsigned width, unsigned col, unsigned indent,
    const char *text);

/* A table: cells laid out from their widths, two spaces apart, after
 * indent spaces.  Too wide for the terminal, its widest columns are
 * narrowed (keep ones last) and their cells folded onto continuation
 * lines. */
#define PD_TABLE_COLS 8

struct pd_table {
	struct pd_arena *a;
	unsigned n_cols, n_rows, max_rows, indent;
	const char **cells;		/* n_rows x n_cols, row-major */
	bool keep[PD_TABLE_COLS];	/* folded only if nothing else fits */
	const char *style[PD_TABLE_COLS];	/* colour of a column; NULL */
	const char *off;			/* what ends a style */
};

void pd_table_init(struct pd_table *t, struct pd_arena *a, unsigned n_cols,
    unsigned max_rows, unsigned indent);
/* Adds a row of n_cols cells (NULL: empty); past max_rows, nothing. */
void pd_table_row(struct pd_table *t, const char *const *cells);
void pd_table_print(const struct pd_table *t, FILE *out, unsigned width);

/* The terminal's width for the output on fd: given (--width) when not
 * 0, else the terminal's own when fd is one, else $COLUMNS, else 80. */
unsigned pd_term_width(int fd, unsigned given);
/* Colour on fd: a terminal, NO_COLOR unset or empty, TERM set and not
 * "dumb". */
bool pd_term_colour(int fd);

#endif

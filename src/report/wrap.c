/* Text laid out for a terminal's width: prose, shell commands, tables
 * (wrap.h).  Widths are counted in columns, one a UTF-8 sequence. */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/text.h"
#include "report/wrap.h"

#define GAP 2		/* spaces between table columns */
#define COL_MIN 8	/* a folded column keeps at least this */
#define ROOM_MIN 8	/* prose gets at least this much of a line */

static bool
lead_byte(char c)
{
	return ((unsigned char)c & 0xc0) != 0x80;
}

unsigned
pd_ncols(const char *s, size_t n)
{
	unsigned c = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		c += lead_byte(s[i]);
	return c;
}

unsigned
pd_cols(const char *s)
{
	return s ? pd_ncols(s, strlen(s)) : 0;
}

static void
spaces(FILE *out, unsigned n)
{
	fprintf(out, "%*s", (int)n, "");
}

/* Bytes of s's first cols columns (a word cut where nothing else fits). */
static size_t
bytes_of_cols(const char *s, unsigned cols)
{
	size_t i = 0;

	for (unsigned c = 0; s[i] && s[i] != '\n'; i++)
		if (lead_byte(s[i]) && c++ == cols)
			break;
	return i;
}

/* True when s (after a space) is a unit that stays with the number
 * before it: "6.30 GB/s", "57.0 %". */
static bool
unit_at(const char *s)
{
	static const char *const units[] = { "%", "B", "kB", "MB", "GB", "TB",
		"B/s", "kB/s", "MB/s", "GB/s", "Mb/s", "Gb/s", "Gbit/s",
		"Mbit/s", "ms", "us", "s", "bytes", NULL };

	for (const char *const *u = units; *u; u++) {
		size_t n = strlen(*u);

		if (strncmp(s, *u, n) == 0 && strchr(" \n,.;:)", s[n]))
			return true;
	}
	return false;
}

/* Where the word at s[i] ends (a number and its unit are one); its
 * columns into *wc. */
static size_t
word_end(const char *s, size_t i, unsigned *wc)
{
	*wc = 0;
	for (; s[i] && s[i] != '\n'; i++) {
		if (s[i] == ' ' && !(i > 0 && s[i - 1] >= '0' &&
		    s[i - 1] <= '9' && unit_at(s + i + 1)))
			break;
		*wc += lead_byte(s[i]);
	}
	return i;
}

/* The first line of s in width columns: its length in bytes; *next is
 * where the rest starts (the spaces at the cut, or one newline, taken
 * off).  Leading spaces stay with the first word. */
static size_t
cut(const char *s, unsigned width, const char **next)
{
	size_t end = 0, i = 0;
	unsigned cols = 0;
	bool first = true;

	while (s[i] && s[i] != '\n') {
		unsigned sp = 0, wc;

		while (s[i] == ' ') {
			i++;
			sp++;
		}
		if (!s[i] || s[i] == '\n')
			break;
		size_t we = word_end(s, i, &wc);

		if (first && sp + wc > width) {
			end = bytes_of_cols(s, width ? width : 1);
			break;
		}
		if (!first && cols + sp + wc > width)
			break;
		end = we;
		cols += sp + wc;
		first = false;
		i = we;
	}
	const char *p = s + end;

	while (*p == ' ')
		p++;
	if (*p == '\n')
		p++;
	*next = p;
	return end;
}

/* The first word's columns, its leading spaces counted. */
static unsigned
first_word(const char *s)
{
	unsigned sp = 0, wc;

	while (s[sp] == ' ')
		sp++;
	word_end(s, sp, &wc);
	return sp + wc;
}

static unsigned
room(unsigned width, unsigned used)
{
	return width > used + ROOM_MIN ? width - used : ROOM_MIN;
}

/* Prose from column col; continuations at indent, then cont. */
static void
wrap(FILE *out, unsigned width, unsigned col, unsigned indent,
    const char *cont, const char *text)
{
	const char *p = text ? text : "";
	unsigned lead = indent + pd_cols(cont);
	bool first = true;

	if (col > lead && first_word(p) > (width > col ? width - col : 0) &&
	    first_word(p) <= room(width, lead)) {
		fputc('\n', out);
		first = false;
	}
	do {
		const char *next;

		if (!first) {
			spaces(out, indent);
			fputs(cont, out);
		}
		size_t n = cut(p, room(width, first ? col : lead), &next);

		fwrite(p, 1, n, out);
		fputc('\n', out);
		p = next;
		first = false;
	} while (*p);
}

void
pd_wrap_text(FILE *out, unsigned width, unsigned col, unsigned indent,
    const char *text)
{
	wrap(out, width, col, indent, "", text);
}

/* Where a shell command may be cut with " \": the spaces outside quotes
 * before any comment.  Returns the next one after s[from], or 0. */
static size_t
next_cut(const char *s, size_t from)
{
	char q = 0;

	for (size_t i = 0; s[i]; i++) {
		if (q) {
			if (s[i] == q)
				q = 0;
			else if (q == '"' && s[i] == '\\' && s[i + 1])
				i++;
			continue;
		}
		if (s[i] == '\\' && s[i + 1])
			i++;
		else if (s[i] == '\'' || s[i] == '"')
			q = s[i];
		else if (s[i] == '#' && (i == 0 || s[i - 1] == ' '))
			return 0;
		else if (s[i] == ' ' && i > from && s[i - 1] != ' ')
			return i;
	}
	return 0;
}

static void
cut_command(FILE *out, unsigned width, unsigned col, unsigned indent,
    const char *s)
{
	size_t at = 0;		/* start of the current line in s */
	unsigned used = col;

	for (;;) {
		size_t best = 0, c = at;

		if (used + pd_cols(s + at) <= width)
			break;
		/* the last cut that leaves room for " \", else the first */
		while ((c = next_cut(s, c)) != 0) {
			if (best && used + pd_ncols(s + at, c - at) + 2 > width)
				break;
			best = c;
		}
		if (!best)
			break;
		fwrite(s + at, 1, best - at, out);
		fputs(" \\\n", out);
		at = best;
		while (s[at] == ' ')
			at++;
		spaces(out, indent + 2);
		used = indent + 2;
	}
	fprintf(out, "%s\n", s + at);
}

void
pd_wrap_code(FILE *out, unsigned width, unsigned col, unsigned indent,
    const char *text)
{
	const char *s = text ? text : "";

	if (s[strspn(s, " ")] == '#') {
		fputs("# ", out);
		wrap(out, width, col + 2, indent, "# ", s + strspn(s, " #"));
	} else
		cut_command(out, width, col, indent, s);
}

void
pd_table_init(struct pd_table *t, struct pd_arena *a, unsigned n_cols,
    unsigned max_rows, unsigned indent)
{
	memset(t, 0, sizeof(*t));
	t->a = a;
	t->n_cols = n_cols < PD_TABLE_COLS ? n_cols : PD_TABLE_COLS;
	t->max_rows = max_rows;
	t->indent = indent;
	t->off = "";
	t->cells = pd_arena_alloc(a, (max_rows ? max_rows : 1) * t->n_cols *
	    sizeof(*t->cells));
}

void
pd_table_row(struct pd_table *t, const char *const *cells)
{
	if (t->n_rows == t->max_rows)
		return;
	for (unsigned c = 0; c < t->n_cols; c++)
		t->cells[t->n_rows * t->n_cols + c] = cells[c] ? cells[c] : "";
	t->n_rows++;
}

/* The total width with the foldable columns narrowed to cap, none below
 * its floor. */
static unsigned
capped(unsigned w, unsigned floor, unsigned cap)
{
	return w <= cap ? w : cap > floor ? cap : floor;
}

static unsigned
capped_sum(const unsigned *w, const unsigned *floor, const bool *fold,
    unsigned n, unsigned cap)
{
	unsigned s = 0;

	for (unsigned c = 0; c < n; c++)
		s += fold[c] ? capped(w[c], floor[c], cap) : w[c];
	return s;
}

/* Narrows the foldable columns to the widest cap that fits avail; true
 * when that was enough (else w is left as it was). */
static bool
narrow(unsigned *w, const unsigned *floor, const bool *fold, unsigned n,
    unsigned avail)
{
	unsigned lo = 1, hi = 0;

	for (unsigned c = 0; c < n; c++)
		if (fold[c] && w[c] > hi)
			hi = w[c];
	if (capped_sum(w, floor, fold, n, lo) > avail)
		return false;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo + 1) / 2;

		if (capped_sum(w, floor, fold, n, mid) <= avail)
			lo = mid;
		else
			hi = mid - 1;
	}
	for (unsigned c = 0; c < n; c++)
		if (fold[c])
			w[c] = capped(w[c], floor[c], lo);
	return true;
}

/* The widest cell and the longest word of column c. */
static void
measure(const struct pd_table *t, unsigned c, unsigned *w, unsigned *word)
{
	*w = *word = 0;
	for (unsigned r = 0; r < t->n_rows; r++) {
		const char *s = t->cells[r * t->n_cols + c];
		unsigned k = pd_cols(s), wc;

		if (k > *w)
			*w = k;
		for (size_t i = 0; s[i];) {
			i += strspn(s + i, " \n");
			i = word_end(s, i, &wc);
			if (wc > *word)
				*word = wc;
		}
	}
}

/* Lines the table takes with widths w. */
static unsigned
height(const struct pd_table *t, const unsigned *w)
{
	unsigned lines = 0;

	for (unsigned r = 0; r < t->n_rows; r++) {
		unsigned most = 1;

		for (unsigned c = 0; c < t->n_cols; c++) {
			const char *p = t->cells[r * t->n_cols + c], *next;
			unsigned k = 0;

			for (; *p; p = next, k++)
				cut(p, w[c], &next);
			most = k > most ? k : most;
		}
		lines += most;
	}
	return lines;
}

/* Widths for one gap: each column its widest cell; too wide, the columns
 * not kept are narrowed, words whole, then every column; with cut,
 * words are cut too.  False when nothing fits. */
static bool
fit(const struct pd_table *t, unsigned width, unsigned gap, bool cut_words,
    unsigned *w)
{
	unsigned n = t->n_cols, sum = 0, used = t->indent + gap * (n - 1);
	unsigned avail = width > used ? width - used : 0;
	unsigned word[PD_TABLE_COLS], cut_at[PD_TABLE_COLS];
	bool fold[PD_TABLE_COLS], all[PD_TABLE_COLS];

	for (unsigned c = 0; c < n; c++) {
		measure(t, c, &w[c], &word[c]);
		cut_at[c] = word[c] < COL_MIN ? word[c] : COL_MIN;
		fold[c] = !t->keep[c];
		all[c] = true;
		sum += w[c];
	}
	return sum <= avail || narrow(w, word, fold, n, avail) ||
	    narrow(w, word, all, n, avail) ||
	    (cut_words && narrow(w, cut_at, all, n, avail));
}

/* The column widths and the gap between columns: two spaces, or one
 * where that folds a quarter fewer lines (or only it fits); as wide as
 * it is when nothing fits. */
static unsigned
layout(const struct pd_table *t, unsigned width, unsigned *w)
{
	unsigned one[PD_TABLE_COLS];
	bool two = fit(t, width, GAP, false, w);

	if (fit(t, width, 1, !two, one) &&
	    (!two || 4 * height(t, one) < 3 * height(t, w))) {
		memcpy(w, one, t->n_cols * sizeof(*w));
		return 1;
	}
	return GAP;
}

/* One row, its folded cells on as many lines as the longest needs;
 * no trailing spaces. */
static void
print_row(const struct pd_table *t, FILE *out, const char *const *cells,
    const unsigned *w, unsigned gap)
{
	const char *p[PD_TABLE_COLS];
	bool more = true;

	for (unsigned c = 0; c < t->n_cols; c++)
		p[c] = cells[c];
	while (more) {
		unsigned pending = t->indent, at = 0;

		more = false;
		for (unsigned c = 0; c < t->n_cols; c++) {
			const char *next = p[c];
			size_t len = *p[c] ? cut(p[c], w[c], &next) : 0;

			at = 0;
			if (len) {
				spaces(out, pending);
				fprintf(out, "%s%.*s%s", t->style[c] ?
				    t->style[c] : "", (int)len, p[c],
				    t->style[c] ? t->off : "");
				at = pd_ncols(p[c], len);
				pending = 0;
			}
			p[c] = next;
			more |= *p[c] != '\0';
			pending += w[c] - (at < w[c] ? at : w[c]) + gap;
		}
		fputc('\n', out);
	}
}

void
pd_table_print(const struct pd_table *t, FILE *out, unsigned width)
{
	unsigned w[PD_TABLE_COLS], gap = layout(t, width, w);

	for (unsigned r = 0; r < t->n_rows; r++)
		print_row(t, out, t->cells + r * t->n_cols, w, gap);
}

unsigned
pd_term_width(int fd, unsigned given)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS"), *end;
	uint64_t n;

	if (given)
		return given;
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col < PD_WIDTH_MIN ? PD_WIDTH_MIN : ws.ws_col;
	if (cols && pd_parse_u64(cols, 10, &n, &end) && *end == '\0' &&
	    n >= PD_WIDTH_MIN && n <= PD_WIDTH_MAX)
		return (unsigned)n;
	return PD_WIDTH_DEFAULT;
}

bool
pd_term_colour(int fd)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	return isatty(fd) && !(nc && nc[0]) && term && term[0] &&
	    strcmp(term, "dumb") != 0;
}

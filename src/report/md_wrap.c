/* Shell lines cut to a width with " \" continuations (md_wrap.h): the
 * line is split into words at blanks outside quotes, a trailing comment
 * being one word, and filled greedily. */
#include <stdbool.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "report/md_wrap.h"

#define MAX_WORDS 256

struct word {
	const char *p;
	size_t n;		/* the word */
	size_t sep;		/* blanks before it in the line */
};

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The end of the word at p: blanks outside quotes end it; a backslash
 * outside single quotes keeps the next byte in it. */
static const char *
word_end(const char *p, bool quotes)
{
	char q = 0;

	for (; *p; p++) {
		if (q == '\'' && *p == '\'')
			q = 0;
		else if (q == '\'')
			continue;
		else if (*p == '\\' && p[1])
			p++;
		else if (q == '"' && *p == '"')
			q = 0;
		else if (!q && quotes && (*p == '\'' || *p == '"'))
			q = *p;
		else if (!q && blank(*p))
			break;
	}
	return p;
}

/* The words of s after its indentation; in a command (quotes true) a
 * word that starts with # is a comment and takes the rest of the line. */
static unsigned
words(const char *s, bool quotes, struct word *w, unsigned max)
{
	unsigned n = 0;

	while (*s && n < max) {
		const char *b = s;

		while (blank(*s))
			s++;
		if (!*s)
			break;
		const char *e = quotes && *s == '#' ? s + strlen(s) :
		    n + 1 == max ? s + strlen(s) : word_end(s, quotes);

		w[n++] = (struct word){ s, (size_t)(e - s), (size_t)(s - b) };
		s = e;
	}
	return n;
}

/* Appends n bytes of p at *o. */
static void
put(char **o, const char *p, size_t n)
{
	memcpy(*o, p, n);
	*o += n;
}

const char *
pd_md_wrap_sh(struct pd_arena *a, const char *line, unsigned width)
{
	struct word w[MAX_WORDS];
	size_t indent = strspn(line, " \t"), len = strlen(line);
	bool comment = line[indent] == '#';

	if (len <= width)
		return line;
	unsigned n = words(line + indent, !comment, w, MAX_WORDS);
	const char *more = comment ? "#   " : "    ";
	char *out = pd_arena_alloc(a, len + n * (indent + 8) + 1), *o = out;
	size_t col = indent + w[0].n;

	put(&o, line, indent);
	put(&o, w[0].p, w[0].n);
	for (unsigned i = 1; i < n; i++) {
		size_t room = comment || i + 1 == n ? 0 : 2;

		if (col + w[i].sep + w[i].n + room <= width) {
			put(&o, w[i].p - w[i].sep, w[i].sep + w[i].n);
			col += w[i].sep + w[i].n;
			continue;
		}
		if (!comment)
			put(&o, " \\", 2);
		*o++ = '\n';
		put(&o, line, indent);
		put(&o, more, 4);
		put(&o, w[i].p, w[i].n);
		col = indent + 4 + w[i].n;
	}
	*o = '\0';
	return out;
}

const char *
pd_md_first_command(struct pd_arena *a, const char *const *lines,
    unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const char *s = lines[i] + strspn(lines[i], " \t");
		struct word w[MAX_WORDS];

		if (!*s || *s == '#')
			continue;
		unsigned k = words(s, true, w, MAX_WORDS);
		char *out = pd_arena_alloc(a, strlen(s) + 1), *o = out;

		for (unsigned j = 0; j < k; j++) {
			if (j)
				*o++ = ' ';
			put(&o, w[j].p, w[j].n);
		}
		*o = '\0';
		return out;
	}
	return NULL;
}

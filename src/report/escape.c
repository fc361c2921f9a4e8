/* Escaping of bundle-derived text, one descriptor per output: what
 * becomes \xNN and what gets a backslash (rules in escape.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pathdoctor/arena.h"
#include "report/escape.h"
#include "report/redact.h"

struct esc_out {
	const char *name;
	bool controls;		/* control() as \xNN */
	bool markdown;		/* Markdown and HTML metacharacters */
};

enum { ESC_TERM, ESC_MD, ESC_CODE, ESC_JSON };

static const struct esc_out outs[] = {
	[ESC_TERM] = { "term", true, false },
	[ESC_MD] = { "md", true, true },
	[ESC_CODE] = { "md code", true, false },
	[ESC_JSON] = { "json", false, false },
};

/* The length of the valid UTF-8 sequence at p (1 to 4), 0 when the byte
 * at p starts none (stray continuation, overlong form, surrogate, beyond
 * U+10FFFF, cut short). */
static size_t
utf8_len(const unsigned char *p)
{
	size_t n;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* A control at p of a valid sequence of n bytes: C0 but tab, DEL, C1,
 * and the bidirectional marks, embeddings, overrides and isolates
 * (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) that reorder what a
 * terminal or browser shows around them. */
static bool
control(const unsigned char *p, size_t n)
{
	if (n == 1)
		return (*p < 0x20 && *p != '\t') || *p == 0x7f;
	if (n == 2)
		return p[0] == 0xc2 && p[1] < 0xa0;
	if (n == 3 && p[0] == 0xe2 && p[1] == 0x80)
		return p[2] == 0x8e || p[2] == 0x8f ||
		    (p[2] >= 0xaa && p[2] <= 0xae);
	return n == 3 && p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 &&
	    p[2] <= 0xa9;
}

static char *
hex(char *o, unsigned char c)
{
	static const char digits[] = "0123456789abcdef";

	*o++ = '\\';
	*o++ = 'x';
	*o++ = digits[c >> 4];
	*o++ = digits[c & 15];
	return o;
}

static bool
word_byte(unsigned char c)
{
	return isalnum(c) || c >= 0x80;
}

/* True when the byte at p (of s) gets a backslash in Markdown text:
 * always \ ` * [ ] | ~; < before what opens a tag, comment or autolink;
 * & before what opens an entity; _ unless inside a word; # and > at the
 * start, where they would open a heading or a quote. */
static bool
md_special(const unsigned char *s, const unsigned char *p)
{
	if (strchr("\\`*[]|~", *p))
		return true;
	if (*p == '<')
		return isalpha(p[1]) || (p[1] && strchr("/!?", p[1]));
	if (*p == '&')
		return isalpha(p[1]) || p[1] == '#';
	if (*p == '_')
		return !(p > s && word_byte(p[-1]) && word_byte(p[1]));
	return p == s && (*p == '#' || *p == '>');
}

/* Writes s escaped for e at o (room for 4 bytes per byte of s). */
static char *
escape_into(char *o, const unsigned char *s, const struct esc_out *e)
{
	for (const unsigned char *p = s; *p;) {
		size_t n = utf8_len(p);

		if (n == 0 || (e->controls && control(p, n))) {
			for (size_t i = 0; i < (n ? n : 1); i++)
				o = hex(o, p[i]);
			p += n ? n : 1;
			continue;
		}
		if (n == 1 && e->markdown && md_special(s, p))
			*o++ = '\\';
		memcpy(o, p, n);
		o += n;
		p += n;
	}
	*o = '\0';
	return o;
}

static const char *
escape(struct pd_arena *a, const char *s, const struct esc_out *e)
{
	if (!s)
		return "";
	char *out = pd_arena_alloc(a, 4 * strlen(s) + 1);

	escape_into(out, (const unsigned char *)s, e);
	return out;
}

const char *
pd_term_text(struct pd_arena *a, const char *s)
{
	s = pd_redact(a, s);
	return escape(a, s, &outs[ESC_TERM]);
}

/* The length of the URL scheme ending at the ':' at p ("https" of
 * "https://"; "mailto" of "mailto:"), 0 when none: letters from a word
 * start. */
static size_t
scheme_before(const char *s, const char *p)
{
	const char *b = p;

	while (b > s && isalpha((unsigned char)b[-1]))
		b--;
	if (b == p || (b > s && (isalnum((unsigned char)b[-1]) ||
	    (unsigned char)b[-1] >= 0x80)))
		return 0;
	if (strncmp(p, "://", 3) == 0 || (p - b == 6 &&
	    strncasecmp(b, "mailto", 6) == 0))
		return (size_t)(p - b);
	return 0;
}

/* The escaped text t with a backslash before what renderers would turn
 * into a link by themselves: every @ (user@host), the : of scheme:// and
 * mailto:, and the dot of www. at a word start. */
static const char *
no_autolinks(struct pd_arena *a, const char *t)
{
	char *out = pd_arena_alloc(a, 2 * strlen(t) + 1), *o = out;

	for (const char *p = t; *p; p++) {
		bool www = *p == '.' && p - t >= 3 &&
		    strncasecmp(p - 3, "www", 3) == 0 && (p - t == 3 ||
		    !(isalnum((unsigned char)p[-4]) || p[-4] == '.' ||
		    (unsigned char)p[-4] >= 0x80));

		if (*p == '@' || www || (*p == ':' && scheme_before(t, p)))
			*o++ = '\\';
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

const char *
pd_md_text(struct pd_arena *a, const char *s)
{
	s = pd_redact(a, s);
	return no_autolinks(a, escape(a, s, &outs[ESC_MD]));
}

/* `text`, or ``text`` when the text holds a backtick, and so on; a
 * space inside the fence when the text starts or ends with a backtick
 * (CommonMark strips one space from each side). */
const char *
pd_md_code(struct pd_arena *a, const char *s)
{
	size_t run = 0, longest = 0, len;

	s = pd_redact(a, s);
	if (!s)
		s = "";
	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	len = strlen(s);
	char *out = pd_arena_alloc(a, 4 * len + 2 * longest + 5), *o = out;
	bool pad = len && (s[0] == '`' || s[len - 1] == '`');

	memset(o, '`', longest + 1);
	o += longest + 1;
	if (pad)
		*o++ = ' ';
	o = escape_into(o, (const unsigned char *)s, &outs[ESC_CODE]);
	if (pad)
		*o++ = ' ';
	memset(o, '`', longest + 1);
	o[longest + 1] = '\0';
	return out;
}

/* One line inside a ``` block: up to three spaces and three backticks
 * would close it. */
const char *
pd_md_fenced(struct pd_arena *a, const char *line)
{
	line = pd_redact(a, line);
	const char *t = pd_term_text(a, line);
	size_t sp = strspn(t, " ");

	if (sp <= 3 && strncmp(t + sp, "```", 3) == 0)
		return pd_arena_printf(a, " %s", t);
	return t;
}

/* json_string, with the bytes that are not UTF-8 as \xNN text: jansson
 * refuses invalid UTF-8 (json_string returns NULL and the key is lost). */
json_t *
pd_json_str(const char *s)
{
	json_t *j;
	char *buf;

	s = pd_redact(NULL, s);
	if (!s)
		return NULL;
	j = json_string(s);
	if (j)
		return j;
	buf = pd_xmalloc(4 * strlen(s) + 1);
	escape_into(buf, (const unsigned char *)s, &outs[ESC_JSON]);
	j = json_string(buf);
	free(buf);
	return j;
}

/* The entity for an HTML metacharacter, NULL for any other byte. */
static const char *
html_entity(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

/* Text and attribute values alike: an entity is at most 6 bytes for one,
 * \xNN 4 for one, so 6 bytes per byte of s always suffice. */
const char *
pd_html_text(struct pd_arena *a, const char *s)
{
	s = pd_redact(a, s);
	if (!s)
		return "";
	char *out = pd_arena_alloc(a, 6 * strlen(s) + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_len(p);
		const char *ent = n == 1 ? html_entity(*p) : NULL;

		if (n == 0 || control(p, n)) {
			for (size_t i = 0; i < (n ? n : 1); i++)
				o = hex(o, p[i]);
			p += n ? n : 1;
		} else if (ent) {
			o = stpcpy(o, ent);
			p++;
		} else {
			memcpy(o, p, n);
			o += n;
			p += n;
		}
	}
	*o = '\0';
	return out;
}

/* Escaping of bundle-derived text for each output (src/report/escape.c).
 * Every string that comes from a bundle, and every string the program
 * wrote with bundle pieces inside (summaries, fixes, bases, notes), is
 * passed through one of these where a renderer prints it.  The rules:
 *
 *   all outputs  a byte that is not part of valid UTF-8 becomes the text
 *                \xNN (two lower-case hex digits)
 *   term, dump   control bytes other than tab (0x00-0x1f, 0x7f), the
 *                C1 controls (U+0080-U+009F) and the bidirectional
 *                controls (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069)
 *                become \xNN per byte
 *   md text      as term, and a backslash before \ ` * [ ] | ~, before
 *                < that opens a tag or autolink (a letter, / ! ?), & that
 *                opens an entity (a letter, #), _ not between two word
 *                bytes, and # or > at the start: safe in table cells, list
 *                items, headings and paragraphs; and before what GitHub
 *                and Discourse would link by themselves: every @, the : of
 *                scheme:// and mailto:, the dot of www. at a word start
 *                (GitHub links user@host.tld whatever the backslash: the
 *                report puts member paths in code spans)
 *   md code      as term inside a code span whose backtick fence is
 *                longer than any backtick run of the text
 *   md fenced    as term; a line that would close the ``` fence gets a
 *                leading space
 *   json         invalid bytes as above; the rest is jansson's escaping
 *   html         as term, and & < > " ' as the entities &amp; &lt; &gt;
 *                &quot; &#39;: safe in element text and in attribute
 *                values in either quote
 *
 * NULL in gives "" (json: NULL, as json_string).  Each function first
 * passes its text through pd_redact (report/redact.h: --redact); a new
 * one does the same, one call at its top. */
#ifndef PD_ESCAPE_H
#define PD_ESCAPE_H

#include <jansson.h>

struct pd_arena;

const char *pd_term_text(struct pd_arena *a, const char *s);
const char *pd_md_text(struct pd_arena *a, const char *s);
const char *pd_md_code(struct pd_arena *a, const char *s);
const char *pd_md_fenced(struct pd_arena *a, const char *line);
json_t *pd_json_str(const char *s);
const char *pd_html_text(struct pd_arena *a, const char *s);

#endif

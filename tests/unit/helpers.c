/* Shared test helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <archive.h>
#include <archive_entry.h>
#include "helpers.h"
#include "finalize/finalize.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"

const char *
corpus_dir(void)
{
	const char *d = getenv("PD_CORPUS");
	struct stat st;

	if (!d || !*d)
		d = "../shared/corpus";
	return stat(d, &st) == 0 && S_ISDIR(st.st_mode) ? d : NULL;
}

bool
corpus_required(void)
{
	const char *ci = getenv("CI");

	return ci && strcmp(ci, "true") == 0;
}

unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 131072;
			buf = realloc(buf, cap);
		}
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

void
parsed_read(struct parsed *p, const char *path)
{
	struct pd_limits lim;

	memset(p, 0, sizeof(*p));
	pd_limits_default(&lim);
	p->m = pd_model_new();
	pd_findings_init(&p->fs, pd_model_arena(p->m));
	p->rc = pd_bundle_read(path, &lim, p->m, &p->cov, p->err,
	    sizeof(p->err));
	pd_model_finalize(p->m);
}

void
parsed_read_memory(struct parsed *p, const void *data, size_t len,
    const char *name)
{
	struct pd_limits lim;

	memset(p, 0, sizeof(*p));
	pd_limits_default(&lim);
	p->m = pd_model_new();
	pd_findings_init(&p->fs, pd_model_arena(p->m));
	p->rc = pd_bundle_read_memory(data, len, name, &lim, p->m, &p->cov,
	    p->err, sizeof(p->err));
	pd_model_finalize(p->m);
}

void
parsed_text(struct parsed *p, const char *name, const char *text)
{
	parsed_read_memory(p, text, strlen(text), name);
}

void
parsed_analyse(struct parsed *p)
{
	pd_engine_run(p->m, &p->fs, NULL);
}

void
parsed_free(struct parsed *p)
{
	pd_findings_release(&p->fs);
	pd_model_free(p->m);
}

const struct pd_finding *
find_finding(const struct parsed *p, const char *rule, const char *subj)
{
	for (size_t i = 0; i < p->fs.n; i++) {
		const struct pd_finding *f = p->fs.v[i];

		if (strcmp(f->rule->id, rule) == 0 &&
		    (!subj || strstr(f->subject, subj)))
			return f;
	}
	return NULL;
}

size_t
count_findings(const struct parsed *p, const char *rule)
{
	size_t n = 0;

	for (size_t i = 0; i < p->fs.n; i++)
		n += strcmp(p->fs.v[i]->rule->id, rule) == 0;
	return n;
}

const struct pd_member_result *
member_result(const struct parsed *p, const char *suffix)
{
	size_t k = strlen(suffix);

	for (const struct pd_member_result *r = p->cov.members; r; r = r->next) {
		size_t n = strlen(r->path);

		if (n >= k && strcmp(r->path + n - k, suffix) == 0)
			return r;
	}
	return NULL;
}

void
parsed_members(struct parsed *p, const char *const *names,
    const char *const *texts, size_t n)
{
	struct pd_diag d;

	memset(p, 0, sizeof(*p));
	p->m = pd_model_new();
	pd_findings_init(&p->fs, pd_model_arena(p->m));
	for (size_t i = 0; i < n; i++) {
		pd_diag_init(&d, pd_model_arena(p->m), names[i]);
		pd_member_parse_buffer(p->m, names[i], texts[i],
		    strlen(texts[i]), &d);
	}
	pd_model_finalize(p->m);
}

unsigned char *
make_tar(const struct tar_entry *e, size_t n, int gz, size_t *len)
{
	size_t cap = 1 << 20;
	unsigned char *buf = NULL;

	for (;;) {
		struct archive *a = archive_write_new();
		size_t used = 0;
		int ok = 1;

		buf = realloc(buf, cap);
		archive_write_set_format_pax_restricted(a);
		if (gz)
			archive_write_add_filter_gzip(a);
		archive_write_set_bytes_in_last_block(a, 1);
		archive_write_open_memory(a, buf, cap, &used);
		for (size_t i = 0; i < n && ok; i++) {
			struct archive_entry *ae = archive_entry_new();
			size_t l = e[i].len ? e[i].len :
			    e[i].data ? strlen(e[i].data) : 0;

			archive_entry_set_pathname(ae, e[i].path);
			archive_entry_set_mtime(ae, 0, 0);
			archive_entry_set_perm(ae, 0644);
			if (e[i].symlink) {
				archive_entry_set_filetype(ae, AE_IFLNK);
				archive_entry_set_symlink(ae, e[i].symlink);
			} else if (e[i].hardlink) {
				archive_entry_set_filetype(ae, AE_IFREG);
				archive_entry_set_hardlink(ae, e[i].hardlink);
			} else if (e[i].device) {
				archive_entry_set_filetype(ae, AE_IFCHR);
				archive_entry_set_rdev(ae, 0x0103);
			} else {
				archive_entry_set_filetype(ae, AE_IFREG);
				archive_entry_set_size(ae, (la_int64_t)l);
			}
			ok = archive_write_header(a, ae) == ARCHIVE_OK;
			if (ok && e[i].data && l)
				ok = archive_write_data(a, e[i].data, l) ==
				    (la_ssize_t)l;
			archive_entry_free(ae);
		}
		ok = archive_write_close(a) == ARCHIVE_OK && ok;
		archive_write_free(a);
		if (ok) {
			*len = used;
			return buf;
		}
		cap *= 4;
		if (cap > (1u << 30))
			return NULL;
	}
}

void
parsed_corpus(struct parsed *p, const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", corpus_dir(), rel);
	parsed_read(p, path);
	assert_int_equal(p->rc, 0);
}

void
each_file(const char *dir, void (*fn)(const char *path, const char *name))
{
	char cmd[600], line[600];
	FILE *ls;

	snprintf(cmd, sizeof(cmd), "find %s -type f | sort", dir);
	ls = popen(cmd, "r");
	assert_non_null(ls);
	while (fgets(line, sizeof(line), ls)) {
		line[strcspn(line, "\n")] = 0;
		const char *base = strrchr(line, '/');

		fn(line, base ? base + 1 : line);
	}
	pclose(ls);
}

void
parsed_analysed(struct parsed *p, const char *path)
{
	parsed_read(p, path);
	parsed_analyse(p);
}

/* True when the member carries a note with this id. */
bool
has_note(const struct pd_member_result *r, const char *id)
{
	for (const struct pd_note *n = r->diag.notes; n; n = n->next)
		if (strcmp(n->id, id) == 0)
			return true;
	return false;
}

uint64_t
test_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);

	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9u;
	z = (z ^ z >> 27) * 0x94d049bb133111ebu;
	return z ^ z >> 31;
}

/* Replays files or directories through a fuzz target without libFuzzer,
 * so `make check` runs every corpus under the sanitizers.  Prints one
 * "ok PATH" line per input; a crash aborts with the sanitizer's report. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, r;

	if (!f) {
		perror(path);
		return 1;
	}
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		r = fread(buf + len, 1, cap - len, f);
		len += r;
	} while (r > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	printf("ok %s\n", path);
	return 0;
}

static int
replay(const char *path)
{
	struct stat st;
	struct dirent **ents;
	int n, bad = 0;

	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	n = scandir(path, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.') {
			size_t k = strlen(path) + strlen(ents[i]->d_name) + 2;
			char *p = malloc(k);

			snprintf(p, k, "%s/%s", path, ents[i]->d_name);
			bad |= replay(p);
			free(p);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	return bad;
}

int
main(int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++)
		bad |= replay(argv[i]);
	return bad;
}

/* opt_table.c - opt_: one parser, the --help options section and the completion, all read from a table. */
#include "opt_table.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_help(const char *w)
{
    return strcmp(w, "-h") == 0 || strcmp(w, "--help") == 0;
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Does word name row d? *inl gets its attached value ("--x=V", "-xV"), or NULL. */
static bool row_matches(const opt_def *d, const char *w, const char **inl)
{
    *inl = NULL;
    if (w[0] != '-')
        return false;
    if (d->flags & OPT_FAMILY) { /* --PREFIX..., its value after the first '=' or the next word */
        size_t n = strcspn(d->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
        if (w[1] != '-' || strncmp(w + 2, d->name, n) != 0)
            return false;
        const char *eq = strchr(w + 2 + n, '=');
        *inl = eq ? eq + 1 : NULL;
        return true;
    }
    if (w[1] == '-') {
        if (!d->name)
            return false;
        size_t n = strlen(d->name);
        if (strncmp(w + 2, d->name, n) != 0)
            return false;
        const char *after = w + 2 + n;
        if (*after == '\0')
            return d->arg != OPT_PREFIX;
        if (*after != '=' || d->arg == OPT_FLAG)
            return false;
        *inl = after + 1;
        return true;
    }
    if (!d->letter || w[1] != d->letter)
        return false;
    if (w[2] == '\0')
        return d->arg != OPT_PREFIX;
    if (d->arg != OPT_VALUE && d->arg != OPT_OPTIONAL)
        return false; /* no bundled flags: -qx is not -q -x */
    *inl = w + 2;
    return true;
}

static const opt_def *find_in(const opt_table *t, const char *w, const char **inl)
{
    for (int i = 0; t && i < t->nopts; i++)
        if (row_matches(&t->opts[i], w, inl))
            return &t->opts[i];
    return NULL;
}

/* The row naming w in t, then (pass) in t->pass; its attached value in *inl. */
static const opt_def *find_row(const opt_table *t, const char *w, bool pass, const char **inl)
{
    const opt_def *d = find_in(t, w, inl);
    return d || !pass ? d : find_in(t->pass, w, inl);
}

const opt_def *opt_find(const opt_table *t, const char *word, bool pass)
{
    const char *inl;
    return find_row(t, word, pass, &inl);
}

static int missing(const opt_def *d, const char *word, char *err, size_t errlen)
{
    if (d->missing)
        snprintf(err, errlen, d->missing, word);
    else if (d->name)
        snprintf(err, errlen, "--%s: missing value", d->name);
    else
        snprintf(err, errlen, "-%c: missing value", d->letter);
    return -1;
}

static bool lone_digit(const char *w)
{
    return w[0] >= '0' && w[0] <= '9' && !w[1];
}

/* A letter as near() compares it: case and '_' against '-' are no difference. */
static char fold(char c)
{
    return c == '_' ? '-' : c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Edits (insert, delete, replace, swap two neighbours) from a[0..n) to b[0..m), both at most 63 long. */
static int edits(const char *a, size_t n, const char *b, size_t m)
{
    int d[64][64];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int v = d[i - 1][j - 1] + (fold(a[i - 1]) != fold(b[j - 1]));
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]) &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

const char *opt_near(const char *words, const char *word, char *out, size_t outlen)
{
    size_t n = strlen(word);
    int best = 3;
    const char *hit = NULL;
    size_t hitlen = 0;
    for (const char *c = words; n && n < 64 && *c;) {
        size_t cl = strcspn(c, " ");
        /* one edit in a short word, two in a longer one: "perfsim" is perf-sim, "x" is no "model" */
        int most = cl <= 4 ? 1 : 2;
        /* the word itself is no near miss ("--quiet=1": the option, misused) */
        int e = cl < 64 && !(cl == n && strncmp(c, word, n) == 0) ? edits(word, n, c, cl) : 99;
        if (e <= most && e < best) {
            best = e;
            hit = c;
            hitlen = cl;
        }
        c += cl + strspn(c + cl, " ");
    }
    if (!hit || hitlen >= outlen)
        return NULL;
    memcpy(out, hit, hitlen);
    out[hitlen] = '\0';
    return out;
}

/* The long option names of t (and t->pass), blank-separated, into buf (those that fit). */
static void long_names(const opt_table *t, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const opt_table *u = t; u; u = u == t ? t->pass : NULL)
        for (int i = 0; i < u->nopts; i++) {
            const char *nm = u->opts[i].name;
            if (nm && !(u->opts[i].flags & OPT_FAMILY) && n + strlen(nm) + 2 < len)
                n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", nm);
        }
}

/* The unknown-option message of t for w (a table without a format and without an operand callback, which
 * opt_table.h does not allow, gets a plain one), and the option it nearly spells. Returns -1. */
static int unknown(const opt_table *t, const char *w, char *err, size_t errlen)
{
    int n = snprintf(err, errlen, t->unknown ? t->unknown : "unknown option '%s'", w);
    char names[4096], name[64], word[64];
    if (n < 0 || (size_t)n >= errlen || strncmp(w, "--", 2) != 0)
        return -1;
    size_t wl = strcspn(w + 2, "=");
    if (wl >= sizeof(word))
        return -1;
    memcpy(word, w + 2, wl);
    word[wl] = '\0';
    long_names(t, names, sizeof(names));
    if (opt_near(names, word, name, sizeof(name)))
        snprintf(err + n, errlen - (size_t)n, "; did you mean --%s?", name);
    return -1;
}

void opt_unknown_passed(const opt_table *own, const char *cmd, char *err, size_t errlen)
{
    static const char head[] = "unknown option '", tail[] = "' (ptosim run --help lists the options)";
    if (strncmp(err, head, sizeof(head) - 1) != 0)
        return;
    const char *w = err + sizeof(head) - 1, *end = strstr(w, tail);
    char word[128], rest[512], names[4096], name[64];
    if (!end || (size_t)(end - w) >= sizeof(word))
        return;
    memcpy(word, w, (size_t)(end - w));
    word[end - w] = '\0';
    snprintf(rest, sizeof(rest), "%s", end + sizeof(tail) - 1); /* run's "; did you mean ...", if any */
    name[0] = '\0';
    if (!rest[0] && strncmp(word, "--", 2) == 0) {
        char bare[64];
        size_t wl = strcspn(word + 2, "=");
        if (wl < sizeof(bare)) {
            memcpy(bare, word + 2, wl);
            bare[wl] = '\0';
            long_names(own, names, sizeof(names));
            if (!opt_near(names, bare, name, sizeof(name)))
                name[0] = '\0';
        }
    }
    snprintf(err, errlen, "unknown option '%s' (ptosim %s --help and ptosim run --help list the options)%s%s%s%s",
             word, cmd, rest, name[0] ? "; did you mean --" : "", name, name[0] ? "?" : "");
}

int opt_parse(const opt_table *t, int argc, char **argv, void *dest, const char **rest, int *nrest, char *err,
              size_t errlen)
{
    if (nrest)
        *nrest = 0;
    for (int i = 0; i < argc && t->help_anywhere; i++) {
        if (t->dashdash && strcmp(argv[i], "--") == 0)
            break;
        if (is_help(argv[i]))
            return 1;
    }
    bool options = true; /* until "--" */
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i], *v = NULL;
        if (options) {
            if (is_help(w))
                return 1;
            if (t->dashdash && strcmp(w, "--") == 0) {
                options = false;
                continue;
            }
            const opt_def *d = find_row(t, w, false, &v);
            if (d && (d->flags & OPT_PASS) && rest) {
                rest[(*nrest)++] = w;
                continue;
            }
            if (d && !(d->flags & OPT_PASS)) {
                if (d->arg == OPT_VALUE && !v) {
                    if (i + 1 >= argc)
                        return missing(d, w, err, errlen);
                    v = argv[++i];
                } else if (d->arg == OPT_OPTIONAL && !v && (d->flags & OPT_NEXT_DIGIT) && i + 1 < argc &&
                           lone_digit(argv[i + 1])) {
                    v = argv[++i];
                } else if (d->arg == OPT_PREFIX) {
                    v = w;
                }
                if (d->store && d->store(d, w, v, dest, err, errlen) != 0)
                    return -1;
                continue;
            }
            if (w[0] == '-' && w[1]) {
                if (rest) {
                    rest[(*nrest)++] = w;
                    continue;
                }
                if (t->unknown || !t->operand)
                    return unknown(t, w, err, errlen);
                /* no format: the operand callback says what is wrong with it */
            }
        }
        if (t->operand) {
            if (t->operand(w, dest, err, errlen) != 0)
                return -1;
        } else if (rest) {
            rest[(*nrest)++] = w;
        } else {
            return unknown(t, w, err, errlen);
        }
    }
    return 0;
}

/* The option column of row d ("-o, --work-dir DIR") into buf. */
static void left_column(const opt_def *d, char *buf, size_t len)
{
    int n = 0;
    if (d->letter && d->name)
        n = snprintf(buf, len, "-%c, --%s", d->letter, d->name);
    else if (d->letter)
        n = snprintf(buf, len, "-%c", d->letter);
    else
        n = snprintf(buf, len, "--%s", d->name);
    if (n < 0 || (size_t)n >= len || !d->meta)
        return;
    const char *form = d->arg == OPT_OPTIONAL ? "[=%s]"
                       : d->arg == OPT_PREFIX ? "=%s"
                       : d->arg == OPT_VALUE  ? " %s"
                                              : "";
    snprintf(buf + n, len - (size_t)n, form, d->meta);
}

static void help_row(FILE *out, const char *left, const char *help, int col)
{
    fprintf(out, "  %-*s", col - 2, left);
    for (const char *line = help; line;) {
        const char *nl = strchr(line, '\n');
        fprintf(out, "%.*s\n", (int)(nl ? (size_t)(nl - line) : strlen(line)), line);
        line = nl ? nl + 1 : NULL;
        if (line)
            fprintf(out, "%*s", col, "");
    }
}

void opt_help_rows(const opt_table *t, int from, int to, FILE *out)
{
    char left[160];
    int width = (int)strlen("-h, --help");
    for (int i = 0; i < t->nopts; i++) {
        left_column(&t->opts[i], left, sizeof(left));
        if ((int)strlen(left) > width)
            width = (int)strlen(left);
    }
    int col = 2 + width + 2;
    for (int i = from; i < to && i < t->nopts; i++) {
        left_column(&t->opts[i], left, sizeof(left));
        help_row(out, left, t->opts[i].help, col);
    }
    if (to >= t->nopts)
        help_row(out, "-h, --help", "this text", col);
}

void opt_help(const opt_table *t, FILE *out)
{
    opt_help_rows(t, 0, t->nopts, out);
}

/* Prints "word W" for each blank-separated word of words that begins with cur, after prefix. */
static void offer_words(FILE *out, const char *words, const char *cur, const char *prefix)
{
    for (const char *w = words; w && *w;) {
        w += strspn(w, " ");
        size_t n = strcspn(w, " ");
        if (n && strlen(cur) <= n && strncmp(w, cur, strlen(cur)) == 0)
            fprintf(out, "word %s%.*s\n", prefix, (int)n, w);
        w += n;
    }
}

/* A name the completion can print on its line: no blank, control character or DEL. */
static bool plain(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == 0x7f)
            return false;
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The platform names of dir (its NAME.json files), sorted, that begin with cur. */
static void offer_platforms(FILE *out, const char *dir, const char *cur, const char *prefix)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return;
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= 5 || strcmp(e->d_name + len - 5, ".json") != 0 ||
            !starts(e->d_name, cur) || !plain(e->d_name))
            continue;
        if ((names[n] = strndup(e->d_name, len - 5)))
            n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof(names[0]), by_name);
    for (int i = 0; i < n; i++) {
        fprintf(out, "word %s%s\n", prefix, names[i]);
        free(names[i]);
    }
}

/* A value of kind k (with choices): its words, then the shell's directive; prefix goes before each word
 * ("--x=" when the value is completed inside "--x=V"; the shell's directives are left out then). */
static void offer_value(FILE *out, opt_kind k, const char *choices, const char *cur, const char *platform_dir,
                        const char *prefix)
{
    offer_words(out, choices, cur, prefix);
    if (k == OPT_KIND_PLATFORM)
        offer_platforms(out, platform_dir, cur, prefix);
    if (prefix[0])
        return;
    if (k == OPT_KIND_FILE)
        fputs("files\n", out);
    else if (k == OPT_KIND_DIR)
        fputs("folders\n", out);
    else if (k == OPT_KIND_PLATFORM)
        fputs("files *.json\n", out);
}

/* Is d the first row, in t's then t->pass's, with d's long name (letter: its short one)? */
static bool first_named(const opt_table *t, const opt_def *d, bool letter)
{
    for (const opt_table *x = t; x; x = x == t ? t->pass : NULL)
        for (int i = 0; i < x->nopts; i++) {
            const opt_def *e = &x->opts[i];
            if (e == d)
                return true;
            if (letter ? e->letter == d->letter : e->name && strcmp(e->name, d->name) == 0)
                return false;
        }
    return true;
}

/* Prints row d's names that begin with cur, unless an earlier row of the listing has them. */
static void offer_names(FILE *out, const opt_table *t, const opt_def *d, const char *cur)
{
    char w[160];
    if (d->name && !(d->flags & OPT_FAMILY) && first_named(t, d, false)) { /* a family's: t->more's */
        snprintf(w, sizeof(w), "--%s%s", d->name, d->arg == OPT_PREFIX ? "=" : "");
        if (starts(w, cur))
            fprintf(out, "word %s\n", w);
    }
    if (d->letter && first_named(t, d, true)) {
        snprintf(w, sizeof(w), "-%c", d->letter);
        if (starts(w, cur))
            fprintf(out, "word %s\n", w);
    }
}

/* The sub-table of t named name, or NULL. */
static const opt_table *sub_named(const opt_table *t, const char *name)
{
    for (int i = 0; t->sub && t->sub(i); i++)
        if (strcmp(t->sub(i)->cmd, name) == 0)
            return t->sub(i);
    return NULL;
}

void opt_complete(const opt_table *t, int nwords, char **words, const char *platform_dir, FILE *out)
{
    if (nwords < 1)
        return;
    const char *cur = words[nwords - 1];
    bool options = true;
    /* the words before: is cur an option's value? */
    for (int i = 0; i < nwords - 1; i++) {
        const char *w = words[i], *v;
        if (t->dashdash && strcmp(w, "--") == 0) {
            options = false;
            break;
        }
        const opt_def *d = find_row(t, w, true, &v);
        if (!d && t->sub && (w[0] != '-' || !w[1])) { /* the first operand: its table has the rest */
            const opt_table *s = sub_named(t, w);
            if (s)
                opt_complete(s, nwords - i - 1, words + i + 1, platform_dir, out);
            return;
        }
        if (!d || v || d->arg == OPT_FLAG)
            continue;
        int j = i + 1; /* its value's word: bash splits --x=V into "--x" "=" "V" */
        bool split = d->name && w[1] == '-' && strcmp(words[j], "=") == 0;
        if (split && j == nwords - 1) {
            offer_value(out, d->kind, d->choices, "", platform_dir, "");
            return;
        }
        if (split)
            j++;
        else if (d->arg != OPT_VALUE)
            continue; /* an optional value is attached: the next word is not it */
        if (j == nwords - 1) {
            offer_value(out, d->kind, d->choices, cur, platform_dir, "");
            return;
        }
        i = j;
    }
    const char *eq = options && starts(cur, "--") ? strchr(cur, '=') : NULL;
    if (eq) { /* "--x=V" as one word (no '=' in COMP_WORDBREAKS): V's words, each after "--x=" */
        const char *v;
        const opt_def *d = find_row(t, cur, true, &v);
        if (d && d->arg != OPT_PREFIX) {
            char prefix[160];
            snprintf(prefix, sizeof(prefix), "%.*s", (int)(eq + 1 - cur), cur);
            offer_value(out, d->kind, d->choices, eq + 1, platform_dir, prefix);
        }
        return;
    }
    if (options && cur[0] == '-') {
        for (int i = 0; i < t->nopts; i++)
            offer_names(out, t, &t->opts[i], cur);
        for (int i = 0; t->pass && i < t->pass->nopts; i++)
            offer_names(out, t, &t->pass->opts[i], cur);
        if (t->more)
            t->more(nwords, words, true, out);
        offer_words(out, "-h --help", cur, "");
        return;
    }
    if (t->more)
        t->more(nwords, words, false, out);
    for (int i = 0; t->sub && t->sub(i); i++)
        offer_words(out, t->sub(i)->cmd, cur, "");
    offer_value(out, t->operand_kind, NULL, cur, platform_dir, "");
}

/* Has a row of t, or of its sub-tables before the one holding d, d's long name (letter: its short one)
 * before d? */
static bool listed_before(const opt_table *t, const opt_def *d, bool letter)
{
    for (int s = -1; s < 0 || (t->sub && t->sub(s)); s++) {
        const opt_table *x = s < 0 ? t : t->sub(s);
        for (int i = 0; i < x->nopts; i++) {
            const opt_def *e = &x->opts[i];
            if (e == d)
                return false;
            if (letter ? e->letter == d->letter : e->name && strcmp(e->name, d->name) == 0)
                return true;
        }
    }
    return false;
}

void opt_list(const opt_table *t, FILE *out)
{
    for (int s = -1; s < 0 || (t->sub && t->sub(s)); s++) {
        const opt_table *x = s < 0 ? t : t->sub(s);
        for (int i = 0; i < x->nopts; i++) {
            const opt_def *d = &x->opts[i];
            if (d->name && !listed_before(t, d, false))
                fprintf(out, "--%s%s\n", d->name, d->arg == OPT_PREFIX ? "=" : "");
            if (d->letter && !listed_before(t, d, true))
                fprintf(out, "-%c\n", d->letter);
        }
    }
    fputs("-h\n--help\n", out);
}

int opt_store_true(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                   size_t errlen)
{
    (void)word;
    (void)value;
    (void)err;
    (void)errlen;
    *(bool *)((char *)dest + d->off) = true;
    return 0;
}

int opt_store_text(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                   size_t errlen)
{
    (void)word;
    (void)err;
    (void)errlen;
    *(const char **)((char *)dest + d->off) = value;
    return 0;
}

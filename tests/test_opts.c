/* test_opts.c - option tables: the parser's forms and messages, and every table against --help, completion,
 * man. */
/* A command's options are declared once (sim/cli/opt_table.h): these tests walk each exported table against
 * what the user meets (its --help, the hidden completion command, the man page), and a table of their own
 * through the parser, the help printer and the completer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/runtime/run_config.h"
#include "../sim/cli/cli.h"
#include "../sim/cli/opt_table.h"
#include "../sim/import/import.h"
#include "../sim/conform/conform.h"
#include "../sim/diff/diff.h"
#include "../sim/gen/gen.h"
#include "../sim/report/overhead.h"
#include "../sim/report/report_html.h"
#include "../sim/run/run.h"
#include "../sim/sweep/sweep.h"
#include "../sim/tune/tune.h"
#include "../sim/whatif/whatif.h"
#include "testutil.h"

/* Every table the program has, in the order of its command table (main.c): `ptosim __options` lists them. */
static const opt_table *const TABLES[] = {
    &cli_run_options, &tune_options, &sweep_options,      &run_validate_options, &import_options,
    &conform_options, &gen_options,  &run_params_options, &htmlrep_options,      &overhead_options,
    &whatif_options, &diff_options};
#define NTABLES (int)(sizeof(TABLES) / sizeof(TABLES[0]))

/* The option column --help gives a row, built here from the row's fields as opt_table.h documents it. */
static void left_of(const opt_def *d, char *buf, size_t len)
{
    char names[128];
    if (d->letter && d->name)
        snprintf(names, sizeof(names), "-%c, --%s", d->letter, d->name);
    else if (d->letter)
        snprintf(names, sizeof(names), "-%c", d->letter);
    else
        snprintf(names, sizeof(names), "--%s", d->name);
    if (d->arg == OPT_FLAG)
        snprintf(buf, len, "%s", names);
    else
        snprintf(buf, len,
                 d->arg == OPT_VALUE      ? "%s %s"
                 : d->arg == OPT_OPTIONAL ? "%s[=%s]"
                                          : "%s=%s",
                 names, d->meta);
}

/* Does the help line (from its option column on) give d's help: the column's blanks, then its first line
 * and the line's end, or for a row of choices its first line, ": " and its choices ("a, b, c")? */
static bool gives_help(const char *line, const char *left, const opt_def *d)
{
    const char *h = strstr(line, left) + strlen(left);
    h += strspn(h, " ");
    char want[512];
    int n = snprintf(want, sizeof(want), "%.*s", (int)strcspn(d->help, "\n"), d->help);
    size_t len = strcspn(h, "\n");
    if (len == (size_t)n && strncmp(h, want, len) == 0)
        return true;
    for (const char *c = d->kind == OPT_KIND_CHOICE ? d->choices : ""; *c; c += strspn(c, " ")) {
        size_t cl = strcspn(c, " ");
        n +=
            snprintf(want + n, sizeof(want) - (size_t)n, "%s%.*s", c == d->choices ? ": " : ", ", (int)cl, c);
        c += cl;
    }
    return len == (size_t)n && strncmp(h, want, len) == 0;
}

/* The line of text that begins with "  " + left followed by blanks (an options section's row), or with
 * "    " (a sub-table's row under its heading: gen's parameters under their kind), and with d (unless NULL)
 * gives d's help; or NULL. */
static const char *help_line(const char *text, const char *left, const opt_def *d)
{
    for (int indent = 2; indent <= 4; indent += 2) {
        char want[256];
        snprintf(want, sizeof(want), "\n%*s%s ", indent, "", left);
        for (const char *p = strstr(text, want); p; p = strstr(p + 1, want))
            if (!d || gives_help(p + 1, left, d))
                return p + 1;
    }
    return NULL;
}

/* What `ptosim __complete CWORD ptosim WORDS...` prints (WORDS blank-separated; "''" an empty word). */
static char *complete(int cword, const char *words)
{
    const char *args[24] = {"__complete", NULL, "ptosim"};
    char cw[16], copy[512];
    snprintf(cw, sizeof(cw), "%d", cword);
    args[1] = cw;
    snprintf(copy, sizeof(copy), "%s", words);
    int n = 3;
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w && n < 23; w = strtok_r(NULL, " ", &save))
        args[n++] = strcmp(w, "''") == 0 ? "" : w;
    args[n] = NULL;
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "__complete %s: exit %d: %s", words, r.status, r.err);
    char *out = r.out;
    r.out = NULL;
    tu_run_free(&r);
    return out;
}

/* What a value of kind k (no choices) completes to from an empty word, by opt_table.h's rules and the
 * shipped platforms (platforms/: a2a3, a2a3_2606, a2a3sim). */
static const char *directive_of(opt_kind k)
{
    switch (k) {
    case OPT_KIND_FILE:
        return "files\n";
    case OPT_KIND_DIR:
        return "folders\n";
    case OPT_KIND_PLATFORM:
        return "word a2a3\nword a2a3_2606\nword a2a3sim\nfiles *.json\n";
    default:
        return "";
    }
}

/* "\-\-name" as the man page writes --name. */
static void man_word(const char *w, char *buf, size_t len)
{
    size_t n = 0;
    for (; *w && n + 3 < len; w++) {
        if (*w == '-')
            buf[n++] = '\\';
        buf[n++] = *w;
    }
    buf[n] = '\0';
}

START_TEST(the_commands_with_a_table_are_the_tables_the_tests_walk)
{
    const char *args[] = {"__options", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 0);
    char want[256] = "";
    for (int i = 0; i < NTABLES; i++)
        snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\n", TABLES[i]->cmd);
    ck_assert_str_eq(r.out, "run\ntune\nsweep\nvalidate\nimport\nconform\ngen\nparams\nreport\noverhead\nwhatif\ndiff\n");
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    /* a command without a table says so by its status, for scripts/check_manpage.sh; the hidden commands are
     * no command of `ptosim help` */
    const char *version[] = {"__options", "--version", NULL}, *help[] = {"help", "__complete", NULL};
    r = tu_run(version);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    r = tu_run(help);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "ptosim help: __complete: unknown command\nusage: ptosim help [COMMAND]\n");
    tu_run_free(&r);
    const char *top[] = {"--help", NULL};
    r = tu_run(top);
    ck_assert_ptr_null(strstr(r.out, "__"));
    tu_run_free(&r);
}
END_TEST

/* Walks the rows of tab against help (what `ptosim CMDLINE --help` printed), the completion after
 * `ptosim CMDLINE -` (CMDLINE: ncmd words) and the man page. */
static void walk_rows(const opt_table *tab, const char *cmdline, int ncmd, const char *help, const char *man)
{
    char words[200];
    snprintf(words, sizeof(words), "%s -", cmdline);
    char *offered = complete(ncmd + 1, words);
    for (int i = 0; i < tab->nopts; i++) {
        const opt_def *d = &tab->opts[i];
        char left[160], name[80], esc[96];
        /* --help: the option column with its metavariable, then the first line of its help */
        left_of(d, left, sizeof(left));
        ck_assert_msg(help_line(help, left, d), "%s --help has no line for %s with its help:\n%s", cmdline,
                      left, help);
        /* completion after `ptosim CMD -`: each name; the man page: each name */
        for (int k = 0; k < 2; k++) {
            if (k == 0 && !d->name)
                continue;
            if (k == 1 && !d->letter)
                continue;
            if (k == 0)
                snprintf(name, sizeof(name), "--%s%s", d->name, d->arg == OPT_PREFIX ? "=" : "");
            else
                snprintf(name, sizeof(name), "-%c", d->letter);
            char want[96];
            snprintf(want, sizeof(want), "word %s\n", name);
            if (d->flags & OPT_FAMILY) {
                /* a family's names are the command's own words (sweep's more()); the man page writes its
                 * prefix, then the rest in italics (\-\-gen\-\fIPARAM) */
                ck_assert_msg(tab->more && !strstr(offered, want), "%s: %s", cmdline, name);
                want[5 + 2 + strcspn(d->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")] = '\0';
                man_word(want + 5, esc, sizeof(esc));
            } else {
                ck_assert_msg(strstr(offered, want), "ptosim %s - does not offer %s:\n%s", cmdline, name,
                              offered);
                man_word(name, esc, sizeof(esc));
            }
            ck_assert_msg(strstr(man, esc), "the man page has no %s (ptosim %s)", name, cmdline);
            /* the value's kind gives its directive, after the name given apart */
            if (d->arg == OPT_VALUE) {
                snprintf(words, sizeof(words), "%s %s ''", cmdline, name);
                char *got = complete(ncmd + 2, words);
                ck_assert_msg(strcmp(got, directive_of(d->kind)) == 0 || d->choices, "%s: %s", words, got);
                free(got);
            }
        }
    }
    ck_assert_msg(strstr(offered, "word -h\nword --help\n"), "%s", offered);
    free(offered);
}

/* The --names of the man page's text from p to end ("\-\-head\-dim" as --head-dim), blank-separated. */
static void man_names(const char *p, const char *end, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    while ((p = strstr(p, "\\-\\-")) && p < end) {
        char name[80] = "--";
        size_t k = 2;
        for (p += 4; k + 1 < sizeof(name);) {
            if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
                name[k++] = *p++;
            else if (p[0] == '\\' && p[1] == '-')
                name[k++] = '-', p += 2;
            else
                break;
        }
        name[k] = '\0';
        n += (size_t)snprintf(out + n, len - n, "%s ", name);
    }
}

/* The man page's "CMD PARAMETERS" section gives each sub-table of tab a paragraph (a .TP whose tag line
 * names it among others) naming its rows, and only those. */
static void walk_man_section(const opt_table *tab, const char *man)
{
    char head[64];
    size_t n = (size_t)snprintf(head, sizeof(head), "\n.SH ");
    for (const char *c = tab->cmd; *c; c++)
        head[n++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
    snprintf(head + n, sizeof(head) - n, " PARAMETERS\n");
    const char *sec = strstr(man, head);
    ck_assert_msg(sec, "the man page has no%s", head);
    const char *end = strstr(sec + 1, "\n.SH ");
    for (int s = 0; tab->sub(s); s++) {
        const opt_table *sub = tab->sub(s);
        const char *para = NULL;
        for (const char *tp = sec; (tp = strstr(tp, "\n.TP\n")) && tp < end; tp++) {
            const char *tag = tp + 5, *eol = strchr(tag, '\n');
            for (const char *w = strstr(tag, sub->cmd); w && w < eol; w = strstr(w + 1, sub->cmd))
                if (w[-1] == ' ' && (w[strlen(sub->cmd)] == ' ' || w[strlen(sub->cmd)] == '\n'))
                    para = eol;
        }
        ck_assert_msg(para, "the man page's%s has no paragraph of %s", head, sub->cmd);
        const char *next = strstr(para, "\n.TP\n");
        char got[1024], want[1024] = "";
        man_names(para, next && next < end ? next : end, got, sizeof(got));
        for (int i = 0; i < sub->nopts; i++)
            snprintf(want + strlen(want), sizeof(want) - strlen(want), "--%s ", sub->opts[i].name);
        ck_assert_msg(strcmp(got, want) == 0, "ptosim %s %s: the man page names %s, the table %s", tab->cmd,
                      sub->cmd, got, want);
    }
}

START_TEST(every_option_of_every_table_is_in_its_help_its_completion_and_the_man_page)
{
    char *man = tu_read(PTOSIM_SRCDIR "/sim/ptosim.1");
    ck_assert_ptr_nonnull(man);
    for (int t = 0; t < NTABLES; t++) {
        const opt_table *tab = TABLES[t];
        const char *help[] = {tab->cmd, "--help", NULL};
        run_out h = tu_run(help);
        ck_assert_int_eq(h.status, 0);
        walk_rows(tab, tab->cmd, 1, h.out, man);
        ck_assert_ptr_nonnull(help_line(h.out, "-h, --help", NULL));
        /* the words that are no option's value: the sub-tables' names, then the operand kind's directive */
        char words[200], want[512] = "";
        for (int s = 0; tab->sub && tab->sub(s); s++)
            snprintf(want + strlen(want), sizeof(want) - strlen(want), "word %s\n", tab->sub(s)->cmd);
        snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s", directive_of(tab->operand_kind));
        snprintf(words, sizeof(words), "%s ''", tab->cmd);
        char *operand = complete(2, words);
        ck_assert_str_eq(operand, want);
        free(operand);
        tu_run_free(&h);
        /* a sub-table (gen's kind): its rows in `CMD SUB --help`, its completion, its man page section */
        for (int s = 0; tab->sub && tab->sub(s); s++) {
            const opt_table *sub = tab->sub(s);
            const char *subhelp[] = {tab->cmd, sub->cmd, "--help", NULL};
            h = tu_run(subhelp);
            ck_assert_int_eq(h.status, 0);
            snprintf(words, sizeof(words), "%s %s", tab->cmd, sub->cmd);
            walk_rows(sub, words, 2, h.out, man);
            tu_run_free(&h);
        }
        if (tab->sub)
            walk_man_section(tab, man);
    }
    free(man);
    /* the RunConfig field each ring flag (and a sweep's ring list) sets is the knob run_config.c names */
    for (int t = 0; t < 2; t++) {
        const opt_table *tab = t ? &sweep_options : &cli_run_options;
        int rings = 0;
        for (int i = 0; i < tab->nopts; i++) {
            const opt_def *d = &tab->opts[i];
            if (d->name && strncmp(d->name, "ring-", 5) == 0) {
                ck_assert_str_eq(d->runconfig, runcfg_knob_name((runcfg_knob)d->id));
                ck_assert_str_eq(d->name, runcfg_knob_flag((runcfg_knob)d->id) + 2);
                rings++;
            }
        }
        ck_assert_int_eq(rings, 3);
    }
}
END_TEST

/* What the completion knows by hand: -p's platforms (given apart, attached with '=' and split by bash at
 * '='), -o's folders even when its value starts with '-', tune's own options before the run options it
 * passes on, SimGrid's --cfg= */
START_TEST(completion_answers_values_and_options_as_the_tables_say)
{
    struct {
        int cword;
        const char *words, *want;
    } cases[] = {
        {4, "run g.jsonl -p a2a3_", "word a2a3_2606\nfiles *.json\n"},
        {2, "run --platform=a2a3s", "word --platform=a2a3sim\n"},
        {5, "run g.jsonl --platform = a2a3s", "word a2a3sim\nfiles *.json\n"},
        {4, "run g.jsonl --platform =", "word a2a3\nword a2a3_2606\nword a2a3sim\nfiles *.json\n"},
        {4, "run g.jsonl -o -p", "folders\n"},
        {5, "run g.jsonl -o -p ''", "files\n"},
        {4, "run g.jsonl --enable-pmu ''", "files\n"}, /* an optional value is attached: a GRAPH follows */
        {4, "run g.jsonl --seed ''", ""},
        {2, "run --c", "word --cfg=\n"},
        {2, "run --ring-", "word --ring-task-window\nword --ring-heap\nword --ring-dep-pool\n"},
        {2, "tune --re", "word --repeat\n"},
        {2, "tune -", NULL},
        {2, "params x", ""},
        {2, "sweep gen:gr", "word gen:granularity\nfiles\n"}, /* a GRAPH gen:KIND, once it begins so */
        {2, "sweep ''", "files\n"},
        {3, "sweep gen:granularity --gen-", "word --gen-k\nword --gen-total-us\n"},
        {3, "sweep g.jsonl --gen-", ""}, /* no generator's parameters without gen:KIND */
        {4, "sweep gen:chain --gen-n ''", ""},
        {5, "sweep gen:chain --gen-n 1 ''", "files\n"},
        {4, "sweep g.jsonl --engine ''", "word local\nword slurm\nword parallel\n"},
        {4, "sweep g.jsonl -p a2a3s", "word a2a3sim\nfiles *.json\n"}, /* a run option it passes on */
        {3, "sweep g.jsonl --res", "word --resume\n"},
        {3, "sweep g.jsonl --coll", "word --collect\n"},
        {2, "params --", "word --platform\nword --help\n"},
        {3, "import --costs ''", "word swimlane\nword model\nword perf-sim\nfiles\n"},
        {3, "import --costs p", "word perf-sim\nfiles\n"},
        {2, "import --costs=s", "word --costs=swimlane\n"},
        {3, "import --fallback ''", "word model\n"},
        {3, "import --pto-isa ''", "folders\n"},
        {4, "import --costs model ''", "folders\n"}, /* DFX_DIR */
        {2, "import -", NULL},
        {3, "conform -p a2a3s", "word a2a3sim\nfiles *.json\n"},
        {3, "conform cap ''", "folders\n"},
        {1, "va", "word validate\n"},
        {1, "he", "word help\n"},
        {2, "help pa", "word params\n"},
        {3, "help params ''", ""},
        {1, "--", "word --version\nword --help\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char *got = complete(cases[i].cword, cases[i].words);
        if (cases[i].want)
            ck_assert_msg(strcmp(got, cases[i].want) == 0, "%s:\n%s", cases[i].words, got);
        else if (strncmp(cases[i].words, "import", 6) == 0)
            ck_assert_str_eq(got,
                             "word --costs\nword --kernel\nword --kernels\nword --values\nword --pto-isa\n"
                             "word --runtime-include\nword --cache\nword --shared-cache\nword --time-limit\n"
                             "word --jobs\nword -j\nword --fallback\nword --quiet\nword -h\nword --help\n");
        else /* tune's own first, each name once though run's table has --seed and --repeat too */
            ck_assert_msg(
                tu_starts(got, "word --max-trials\nword --seed\nword --repeat\nword --work-dir\n") &&
                    !strstr(strstr(got, "--repeat") + 1, "--repeat\n") &&
                    strstr(got, "word --cfg=\nword --log=\nword -h\nword --help\n"),
                "%s", got);
        free(got);
    }
    /* a command without a table is left to the script; a bad call is a usage error */
    const char *version[] = {"__complete", "2", "ptosim", "--version", "-", NULL};
    run_out r = tu_run(version);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    const char *bad[] = {"__complete", "5", "ptosim", "run", NULL};
    r = tu_run(bad);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err,
                     "usage: ptosim __complete CWORD PTOSIM [WORD...] (CWORD: which WORD is completed, "
                     "from 1)\n");
    tu_run_free(&r);
}
END_TEST

/* A table of every form, for the parser, the help printer and the completer. */
typedef struct topts {
    const char *value, *opt, *x;
    bool flag;
    int nvalue;         /* --value stores seen */
    const char *cfg[4]; /* --cfg=... words */
    int ncfg;
    const char *ops[8]; /* operands */
    int nops;
} topts;

static int t_value(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                   size_t errlen)
{
    topts *o = dest;
    o->nvalue++;
    return opt_store_text(d, word, value, dest, err, errlen);
}

static int t_opt(const opt_def *d, const char *word, const char *value, void *dest, char *err, size_t errlen)
{
    (void)d;
    (void)word;
    (void)err;
    (void)errlen;
    ((topts *)dest)->opt = value ? value : "(bare)";
    return 0;
}

static int t_cfg(const opt_def *d, const char *word, const char *value, void *dest, char *err, size_t errlen)
{
    (void)d;
    (void)word;
    (void)err;
    (void)errlen;
    topts *o = dest;
    o->cfg[o->ncfg++] = value;
    return 0;
}

static int t_bad(const opt_def *d, const char *word, const char *value, void *dest, char *err, size_t errlen)
{
    (void)d;
    (void)dest;
    snprintf(err, errlen, "%s: '%s' is not good", word, value);
    return -1;
}

static int t_operand(const char *word, void *dest, char *err, size_t errlen)
{
    topts *o = dest;
    if (o->nops == 8) {
        snprintf(err, errlen, "too many");
        return -1;
    }
    o->ops[o->nops++] = word;
    return 0;
}

static const opt_def T_OPTS[] = {
    {.name = "value",
     .letter = 'v',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_FILE,
     .meta = "V",
     .help = "a value\nover two lines",
     .store = t_value,
     .off = offsetof(topts, value)},
    {.name = "opt",
     .arg = OPT_OPTIONAL,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "an optional one",
     .store = t_opt,
     .flags = OPT_NEXT_DIGIT},
    {.name = "flag",
     .letter = 'f',
     .arg = OPT_FLAG,
     .help = "a flag",
     .store = opt_store_true,
     .off = offsetof(topts, flag)},
    {.name = "cfg",
     .arg = OPT_PREFIX,
     .kind = OPT_KIND_TEXT,
     .meta = "K:V",
     .help = "attached",
     .store = t_cfg},
    {.name = "must",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_CHOICE,
     .choices = "alpha beta",
     .meta = "WORD",
     .help = "a word",
     .missing = "--must needs alpha or beta"},
    {.name = "bad", .arg = OPT_VALUE, .kind = OPT_KIND_DIR, .meta = "D", .help = "refused", .store = t_bad},
    {.letter = 'x',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_PLATFORM,
     .meta = "P",
     .help = "short only",
     .store = opt_store_text,
     .off = offsetof(topts, x)},
    {.name = "passed-on", .arg = OPT_VALUE, .meta = "Q", .help = "another's", .flags = OPT_PASS},
};

static const opt_table T = {
    .cmd = "t",
    .opts = T_OPTS,
    .nopts = OPT_COUNT(T_OPTS),
    .operand_kind = OPT_KIND_FILE,
    .operand = t_operand,
    .unknown = "unknown option '%s' (t --help)",
};

/* Parses the blank-separated words with table t into o; returns opt_parse's result, its message in err. */
static int parse_with(const opt_table *t, const char *words, topts *o, char *err, const char **rest,
                      int *nrest)
{
    static char copy[512];
    char *argv[32];
    int argc = 0;
    snprintf(copy, sizeof(copy), "%s", words);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w && argc < 32; w = strtok_r(NULL, " ", &save))
        argv[argc++] = strcmp(w, "''") == 0 ? (char *)"" : w;
    memset(o, 0, sizeof(*o));
    err[0] = '\0';
    return opt_parse(t, argc, argv, o, rest, nrest, err, 256);
}

START_TEST(the_parser_takes_every_form_and_says_what_is_wrong)
{
    topts o;
    char err[256];
    /* a value: apart, after '=', attached to the letter, apart from it; the last one given wins */
    static const char *const forms[] = {"--value V", "--value=V", "-vV", "-v V", "--value a -v V"};
    for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++) {
        ck_assert_int_eq(parse_with(&T, forms[i], &o, err, NULL, NULL), 0);
        ck_assert_str_eq(o.value, "V");
        ck_assert_int_eq(o.nvalue, i == 4 ? 2 : 1);
        ck_assert_int_eq(o.nops, 0);
    }
    ck_assert_int_eq(parse_with(&T, "--value= -v --flag", &o, err, NULL, NULL), 0);
    ck_assert_str_eq(o.value, "--flag"); /* a value given apart is the next word, whatever it is */
    ck_assert(!o.flag);
    /* an optional value: bare, attached, or a lone digit after it; anything else after it is not its */
    ck_assert_int_eq(parse_with(&T, "--opt", &o, err, NULL, NULL), 0);
    ck_assert_str_eq(o.opt, "(bare)");
    ck_assert_int_eq(parse_with(&T, "--opt=12", &o, err, NULL, NULL), 0);
    ck_assert_str_eq(o.opt, "12");
    ck_assert_int_eq(parse_with(&T, "--opt 3", &o, err, NULL, NULL), 0);
    ck_assert_str_eq(o.opt, "3");
    ck_assert_int_eq(parse_with(&T, "--opt 33", &o, err, NULL, NULL), 0);
    ck_assert_str_eq(o.opt, "(bare)");
    ck_assert_int_eq(o.nops, 1);
    ck_assert_str_eq(o.ops[0], "33");
    /* flags, a prefix option (the whole word), operands in order ("-" is one) */
    ck_assert_int_eq(parse_with(&T, "a -f --cfg=k:v - --cfg=x b", &o, err, NULL, NULL), 0);
    ck_assert(o.flag);
    ck_assert_int_eq(o.ncfg, 2);
    ck_assert_str_eq(o.cfg[0], "--cfg=k:v");
    ck_assert_str_eq(o.cfg[1], "--cfg=x");
    ck_assert_int_eq(o.nops, 3);
    ck_assert_str_eq(o.ops[0], "a");
    ck_assert_str_eq(o.ops[1], "-");
    ck_assert_str_eq(o.ops[2], "b");
    /* the messages */
    static const struct {
        const char *words, *err;
    } bad[] = {
        {"--value", "--value: missing value"},
        {"-v", "--value: missing value"}, /* the long name, whichever was given */
        {"-x", "-x: missing value"},
        {"--must", "--must needs alpha or beta"},
        {"--bad z", "--bad: 'z' is not good"},
        {"--bad=z", "--bad=z: 'z' is not good"},
        {"--nope", "unknown option '--nope' (t --help)"},
        {"--flag=1", "unknown option '--flag=1' (t --help)"},
        {"-fq", "unknown option '-fq' (t --help)"}, /* no bundled flags */
        {"--cfg", "unknown option '--cfg' (t --help)"},
        {"--", "unknown option '--' (t --help)"},
        {"--passed-on q", "unknown option '--passed-on' (t --help)"}, /* not parsed here without rest */
        {"a b c d e f g h i", "too many"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        ck_assert_msg(parse_with(&T, bad[i].words, &o, err, NULL, NULL) == -1, "%s", bad[i].words);
        ck_assert_str_eq(err, bad[i].err);
    }
    /* a row's own message for a missing value names the option as it was given */
    static const opt_def J[] = {{.name = "jobs",
                                 .letter = 'j',
                                 .arg = OPT_VALUE,
                                 .meta = "N",
                                 .help = "jobs",
                                 .missing = "%s needs a value"}};
    opt_table jt = {.cmd = "j", .opts = J, .nopts = 1, .unknown = "%s"};
    ck_assert_int_eq(parse_with(&jt, "-j", &o, err, NULL, NULL), -1);
    ck_assert_str_eq(err, "-j needs a value");
    ck_assert_int_eq(parse_with(&jt, "--jobs", &o, err, NULL, NULL), -1);
    ck_assert_str_eq(err, "--jobs needs a value");
    /* help: -h or --help where an option may be, not as a value, not after an error */
    ck_assert_int_eq(parse_with(&T, "a -h", &o, err, NULL, NULL), 1);
    ck_assert_int_eq(parse_with(&T, "--value --help", &o, err, NULL, NULL), 0);
    ck_assert_int_eq(parse_with(&T, "--nope --help", &o, err, NULL, NULL), -1);
    opt_table anywhere = T;
    anywhere.help_anywhere = true;
    ck_assert_int_eq(parse_with(&anywhere, "--nope --help", &o, err, NULL, NULL), 1);
    ck_assert_int_eq(parse_with(&anywhere, "--value --help", &o, err, NULL, NULL), 1);
    /* "--" ends the options where the table says so */
    opt_table dd = T;
    dd.dashdash = true;
    ck_assert_int_eq(parse_with(&dd, "-f -- --value -h", &o, err, NULL, NULL), 0);
    ck_assert(o.flag);
    ck_assert_int_eq(o.nops, 2);
    ck_assert_str_eq(o.ops[0], "--value");
    ck_assert_str_eq(o.ops[1], "-h");
    /* with rest: what the table does not know, and its OPT_PASS rows, go on in order */
    opt_table pass = T;
    pass.operand = NULL;
    const char *rest[32];
    int nrest = -1;
    ck_assert_int_eq(parse_with(&pass, "g --passed-on q --nope -f --value v - --x=1", &o, err, rest, &nrest),
                     0);
    ck_assert_int_eq(nrest, 6);
    static const char *const want[] = {"g", "--passed-on", "q", "--nope", "-", "--x=1"};
    for (int i = 0; i < 6; i++)
        ck_assert_str_eq(rest[i], want[i]);
    ck_assert(o.flag);
    ck_assert_str_eq(o.value, "v");
    /* the row a word names, in the table or (asked) in the one it passes on */
    static const opt_def MORE[] = {{.name = "other", .arg = OPT_FLAG, .help = "other"}};
    opt_table inner = {.cmd = "i", .opts = MORE, .nopts = 1};
    pass.pass = &inner;
    ck_assert_ptr_eq(opt_find(&pass, "-vX", false), &T_OPTS[0]);
    ck_assert_ptr_eq(opt_find(&pass, "--value=X", false), &T_OPTS[0]);
    ck_assert_ptr_eq(opt_find(&pass, "--cfg=a", false), &T_OPTS[3]);
    ck_assert_ptr_null(opt_find(&pass, "--cfg", false));
    ck_assert_ptr_null(opt_find(&pass, "--other", false));
    ck_assert_ptr_eq(opt_find(&pass, "--other", true), &MORE[0]);
    ck_assert_ptr_null(opt_find(&pass, "--other=1", true));
    /* a table without an unknown-option format: its operand callback takes (and words) unknown options */
    opt_table judged = T;
    judged.unknown = NULL;
    ck_assert_int_eq(parse_with(&judged, "--nope -f a -q", &o, err, NULL, NULL), 0);
    ck_assert(o.flag);
    ck_assert_int_eq(o.nops, 3);
    ck_assert_str_eq(o.ops[0], "--nope");
    ck_assert_str_eq(o.ops[1], "a");
    ck_assert_str_eq(o.ops[2], "-q");
    ck_assert_int_eq(parse_with(&judged, "a b c d e f g h --nope", &o, err, NULL, NULL), -1);
    ck_assert_str_eq(err, "too many");
    /* neither a format nor an operand callback (no table is declared so): a plain message, not a crash */
    judged.operand = NULL;
    ck_assert_int_eq(parse_with(&judged, "-f --nope", &o, err, NULL, NULL), -1);
    ck_assert_str_eq(err, "unknown option '--nope'");
    ck_assert_int_eq(parse_with(&judged, "a", &o, err, NULL, NULL), -1);
    ck_assert_str_eq(err, "unknown option 'a'");
}
END_TEST

/* Two sub-tables a and b, which T's first operand names (as gen's kinds). */
static const opt_def SUB_A[] = {
    {.name = "value", .arg = OPT_VALUE, .kind = OPT_KIND_DIR, .meta = "D", .help = "a's"},
    {.name = "only-a", .arg = OPT_FLAG, .help = "a's own"},
};
static const opt_def SUB_B[] = {
    {.name = "value",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_CHOICE,
     .choices = "x y",
     .meta = "W",
     .help = "b's"},
    {.name = "flag", .letter = 'f', .arg = OPT_FLAG, .help = "b's flag"},
};
static const opt_table SUBS[] = {{.cmd = "a", .opts = SUB_A, .nopts = OPT_COUNT(SUB_A)},
                                 {.cmd = "b", .opts = SUB_B, .nopts = OPT_COUNT(SUB_B)}};

static const opt_table *sub_of(int i)
{
    return i >= 0 && i < 2 ? &SUBS[i] : NULL;
}

START_TEST(help_prints_the_options_section_from_the_table)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    opt_help(&T, f);
    fclose(f);
    /* the widest columns, "-v, --value V" and "--passed-on Q" (13), put the help at 2 + 13 + 2 = 17 */
    ck_assert_str_eq(text, "  -v, --value V  a value\n"
                           "                 over two lines\n"
                           "  --opt[=N]      an optional one\n"
                           "  -f, --flag     a flag\n"
                           "  --cfg=K:V      attached\n"
                           "  --must WORD    a word\n"
                           "  --bad D        refused\n"
                           "  -x P           short only\n"
                           "  --passed-on Q  another's\n"
                           "  -h, --help     this text\n");
    free(text);
    /* and the names a script lists */
    f = open_memstream(&text, &len);
    opt_list(&T, f);
    fclose(f);
    ck_assert_str_eq(text,
                     "--value\n-v\n--opt\n--flag\n-f\n--cfg=\n--must\n--bad\n-x\n--passed-on\n-h\n--help\n");
    free(text);
    /* with sub-tables: their names after the table's, each once */
    opt_table outer = T;
    outer.sub = sub_of;
    f = open_memstream(&text, &len);
    opt_list(&outer, f);
    fclose(f);
    ck_assert_str_eq(text,
                     "--value\n-v\n--opt\n--flag\n-f\n--cfg=\n--must\n--bad\n-x\n--passed-on\n--only-a\n-h\n"
                     "--help\n");
    free(text);
}
END_TEST

/* opt_complete of T for the blank-separated words (the last being completed). */
static char *complete_t(const opt_table *t, const char *words)
{
    char copy[256], *argv[16];
    int n = 0;
    snprintf(copy, sizeof(copy), "%s", words);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w && n < 16; w = strtok_r(NULL, " ", &save))
        argv[n++] = strcmp(w, "''") == 0 ? (char *)"" : w;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    opt_complete(t, n, argv, PTOSIM_SRCDIR "/platforms", f);
    fclose(f);
    return text;
}

START_TEST(the_completer_offers_by_kind_and_names)
{
    static const struct {
        const char *words, *want;
    } cases[] = {
        {"--value ''", "files\n"},
        {"-v ''", "files\n"},
        {"--bad ''", "folders\n"},
        {"--must b", "word beta\n"},
        {"--must = ''", "word alpha\nword beta\n"},
        {"--must=a", "word --must=alpha\n"},
        {"-x a2a3s", "word a2a3sim\nfiles *.json\n"},
        {"-f ''", "files\n"},
        {"--opt ''", "files\n"},
        {"--value -f ''", "files\n"},
        {"--value -f", "files\n"},
        {"--f", "word --flag\n"},
        {"--c", "word --cfg=\n"},
        {"-",
         "word --value\nword -v\nword --opt\nword --flag\nword -f\nword --cfg=\nword --must\nword --bad\n"
         "word -x\nword --passed-on\nword -h\nword --help\n"},
        {"--passed-on ''", ""},
        {"a b", "files\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char *got = complete_t(&T, cases[i].words);
        ck_assert_msg(strcmp(got, cases[i].want) == 0, "%s:\n%s", cases[i].words, got);
        free(got);
    }
    /* a platform folder's names: NAME.json files only, none a line could not carry, sorted */
    const char *dir = tu_tmpdir();
    static const char *const files[] = {"b.json",  "a.json", "a b.json", "c\001.json",
                                        ".h.json", "d.xml",  ".json"};
    for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++)
        free(tu_write(dir, files[i], "{}"));
    const char *words[] = {"-x", ""};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    opt_complete(&T, 2, (char **)words, dir, f);
    fclose(f);
    ck_assert_str_eq(text, "word a\nword b\nfiles *.json\n");
    free(text);
    /* after "--", where the table ends its options there, every word is an operand */
    opt_table dd = T;
    dd.dashdash = true;
    char *got = complete_t(&dd, "-- -");
    ck_assert_str_eq(got, "files\n");
    free(got);
    /* a table passing options on offers those too, each name once */
    static const opt_def MORE[] = {{.name = "value", .arg = OPT_VALUE, .help = "again"},
                                   {.name = "other", .letter = 'v', .arg = OPT_FLAG, .help = "other"}};
    opt_table inner = {.cmd = "i", .opts = MORE, .nopts = 2};
    opt_table outer = T;
    outer.pass = &inner;
    got = complete_t(&outer, "--o");
    ck_assert_str_eq(got, "word --opt\nword --other\n");
    free(got);
    got = complete_t(&outer, "-v");
    ck_assert_str_eq(got, "word -v\n");
    free(got);
    /* sub-tables: the first operand is one's name, and the words after it are its */
    static const struct {
        const char *words, *want;
    } subs[] = {
        {"''", "word a\nword b\nfiles\n"},
        {"-f b", "word b\nfiles\n"},
        {"--value x ''", "word a\nword b\nfiles\n"},
        {"--value ''", "files\n"}, /* T's --value, before any operand */
        {"a -", "word --value\nword --only-a\nword -h\nword --help\n"},
        {"-f a --value ''", "folders\n"},
        {"b --value ''", "word x\nword y\n"},
        {"b --value=y", "word --value=y\n"},
        {"b -", "word --value\nword --flag\nword -f\nword -h\nword --help\n"},
        {"b --must ''", ""}, /* T's options are not b's */
        {"c -", ""},         /* no table: nothing */
    };
    opt_table with_subs = T;
    with_subs.sub = sub_of;
    for (size_t i = 0; i < sizeof(subs) / sizeof(*subs); i++) {
        got = complete_t(&with_subs, subs[i].words);
        ck_assert_msg(strcmp(got, subs[i].want) == 0, "%s:\n%s", subs[i].words, got);
        free(got);
    }
}
END_TEST

/* The messages the converted commands gave before their tables, byte for byte (sim/main.c's and cli.c's
 * parsers of the time). */
#define USAGE_IMPORT                                                                                         \
    "usage: ptosim import [--costs swimlane|model|perf-sim|FILE] DFX_DIR > graph.jsonl (ptosim import "      \
    "--help)\n"
/* A family of options (--gen-PARAM: every --gen- word), words only the command knows (its more()), a
 * missing value's message naming the option as given, and a help in sections. */
static int t_family(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                    size_t errlen)
{
    (void)d;
    (void)err;
    (void)errlen;
    topts *o = dest;
    o->cfg[o->ncfg++] = word;
    o->ops[o->nops++] = value;
    return 0;
}

/* after a first word k: the family's names --gen-a and --gen-b; as the first word, the operand "op1" */
static void t_more(int nwords, char **words, bool option, FILE *out)
{
    const char *cur = words[nwords - 1];
    static const char *const fam[] = {"--gen-a", "--gen-b"};
    for (int i = 0; i < 2 && option && nwords > 1 && strcmp(words[0], "k") == 0; i++)
        if (tu_starts(fam[i], cur))
            fprintf(out, "word %s\n", fam[i]);
    if (!option && nwords == 1 && tu_starts("op1", cur))
        fputs("word op1\n", out);
}

static const opt_def F_OPTS[] = {
    {.name = "gen-PARAM",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_LIST,
     .meta = "LIST",
     .help = "a family",
     .store = t_family,
     .flags = OPT_FAMILY},
    {.name = "out",
     .letter = 'o',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "named as given when missing",
     .missing = "%s: missing value"},
    {.name = "gen",
     .arg = OPT_FLAG,
     .help = "no member of the family",
     .store = opt_store_true,
     .off = offsetof(topts, flag)},
};

static const opt_table F = {
    .cmd = "f",
    .opts = F_OPTS,
    .nopts = OPT_COUNT(F_OPTS),
    .operand_kind = OPT_KIND_FILE,
    .operand = t_operand,
    .unknown = "unknown option '%s' (f --help)",
    .more = t_more,
};

START_TEST(a_family_more_words_and_a_help_in_sections)
{
    topts o;
    char err[256];
    /* each --gen- word is the family's, its value attached after the first '=' or apart; --gen is not */
    ck_assert_int_eq(parse_with(&F, "--gen-a 1 --gen-b=2,3=4 --gen --gen- x a", &o, err, NULL, NULL), 0);
    ck_assert_int_eq(o.ncfg, 3);
    ck_assert_str_eq(o.cfg[0], "--gen-a");
    ck_assert_str_eq(o.cfg[1], "--gen-b=2,3=4");
    ck_assert_str_eq(o.cfg[2], "--gen-");
    ck_assert_int_eq(o.nops, 4);
    ck_assert_str_eq(o.ops[0], "1");
    ck_assert_str_eq(o.ops[1], "2,3=4");
    ck_assert_str_eq(o.ops[2], "x");
    ck_assert_str_eq(o.ops[3], "a");
    ck_assert(o.flag);
    static const struct {
        const char *words, *err;
    } bad[] = {
        {"--gen-a", "--gen-PARAM: missing value"},
        {"-o", "-o: missing value"},
        {"--out", "--out: missing value"},
        {"--gen=1", "unknown option '--gen=1' (f --help)"},
        {"-gen-a", "unknown option '-gen-a' (f --help)"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        ck_assert_msg(parse_with(&F, bad[i].words, &o, err, NULL, NULL) == -1, "%s", bad[i].words);
        ck_assert_str_eq(err, bad[i].err);
    }
    ck_assert_ptr_eq(opt_find(&F, "--gen-zz=1", false), &F_OPTS[0]);
    ck_assert_ptr_eq(opt_find(&F, "--gen", false), &F_OPTS[2]);
    /* completion: the family's names are more()'s, its value its kind's; more()'s operands first */
    static const struct {
        const char *words, *want;
    } cases[] = {
        {"k --gen-", "word --gen-a\nword --gen-b\n"},
        {"k -", "word --out\nword -o\nword --gen\nword --gen-a\nword --gen-b\nword -h\nword --help\n"},
        {"x -", "word --out\nword -o\nword --gen\nword -h\nword --help\n"},
        {"k --gen-a ''", ""},
        {"k --gen-a=1", ""},
        {"k --gen-a 1 ''", "files\n"},
        {"''", "word op1\nfiles\n"},
        {"o", "word op1\nfiles\n"},
        {"x", "files\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char *got = complete_t(&F, cases[i].words);
        ck_assert_msg(strcmp(got, cases[i].want) == 0, "%s:\n%s", cases[i].words, got);
        free(got);
    }
    /* a help in two sections, the column the whole table's (after "--gen-PARAM LIST": 2 + 16 + 2) */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    opt_help_rows(&F, 0, 1, f);
    fputs("--\n", f);
    opt_help_rows(&F, 1, F.nopts, f);
    fclose(f);
    ck_assert_str_eq(text, "  --gen-PARAM LIST  a family\n"
                           "--\n"
                           "  -o, --out DIR     named as given when missing\n"
                           "  --gen             no member of the family\n"
                           "  -h, --help        this text\n");
    free(text);
    f = open_memstream(&text, &len);
    opt_list(&F, f);
    fclose(f);
    ck_assert_str_eq(text, "--gen-PARAM\n--out\n-o\n--gen\n-h\n--help\n");
    free(text);
}
END_TEST

#define GEN_USAGE "usage: ptosim gen KIND [--PARAM VALUE ...] > GRAPH.jsonl (ptosim gen --help)\n"
#define GEN_KINDS                                                                                            \
    "kinds are chain, fan, forkjoin, granularity, bgemm, paged_attention, decode_layer, random\n"

/* A near miss of an option's name or of one of its values is named: one helper (opt_near) for every table.
 * --costs perfsim said "cannot read the costs table" (read as a FILE); a mistyped option had no hint. */
START_TEST(a_near_miss_of_an_option_or_a_value_gets_did_you_mean)
{
    char out[32];
    ck_assert_str_eq(opt_near("swimlane model perf-sim", "perfsim", out, sizeof(out)), "perf-sim");
    ck_assert_str_eq(opt_near("swimlane model perf-sim", "Perf_Sim", out, sizeof(out)), "perf-sim");
    ck_assert_str_eq(opt_near("swimlane model perf-sim", "modle", out, sizeof(out)), "model"); /* a swap */
    ck_assert_ptr_null(opt_near("swimlane model perf-sim", "cycles", out, sizeof(out)));
    ck_assert_ptr_null(opt_near("swimlane model perf-sim", "model", out, sizeof(out)));
    ck_assert_str_eq(opt_near("local slurm parallel", "lcl", out, sizeof(out)), "local"); /* 2 edits of 5 */
    ck_assert_ptr_null(opt_near("local slurm parallel", "xyz", out, sizeof(out)));
    ck_assert_ptr_null(opt_near("a2a3", "a5", out, sizeof(out))); /* 2 edits of a 4-letter word: not near */
    static const struct {
        const char *args[8];
        const char *err;
    } cases[] = {
        {{"run", TRACE("chain3.jsonl"), "--ring-hep", "4"},
         "ptosim: unknown option '--ring-hep' (ptosim run --help lists the options); did you mean "
         "--ring-heap?\n" TU_USAGE_RUN},
        {{"run", TRACE("chain3.jsonl"), "--Enable_Dep_Gen"},
         "ptosim: unknown option '--Enable_Dep_Gen' (ptosim run --help lists the options); did you mean "
         "--enable-dep-gen?\n" TU_USAGE_RUN},
        {{"run", TRACE("chain3.jsonl"), "--zzz"},
         "ptosim: unknown option '--zzz' (ptosim run --help lists the options)\n" TU_USAGE_RUN},
        {{"tune", TRACE("chain3.jsonl"), "--ring-task-windw=4"},
         "ptosim tune: unknown option '--ring-task-windw=4' (ptosim tune --help and ptosim run --help list "
         "the options); did you mean --ring-task-window?\n" TU_USAGE_TUNE},
        /* tune's own options are near misses too */
        {{"tune", TRACE("chain3.jsonl"), "--max-trial", "3"},
         "ptosim tune: unknown option '--max-trial' (ptosim tune --help and ptosim run --help list the "
         "options); did you mean --max-trials?\n" TU_USAGE_TUNE},
        {{"import", "--costs", "perfsim", "d"},
         "ptosim import: --costs: 'perfsim' is no source (swimlane, model, perf-sim) and no file; did you "
         "mean perf-sim?\n" USAGE_IMPORT},
        {{"sweep", TRACE("chain3.jsonl"), "--engine=slrum"},
         "ptosim sweep: --engine: 'slrum' is not an engine (local, slurm, parallel); did you mean slurm?\n"
             TU_USAGE_SWEEP},
        {{"gen", "paged_attention", "--variant", "manul"},
         "ptosim gen: paged_attention: --variant: must be one of plain, unroll, manual, batch, spmd, got "
         "'manul'; did you mean manual?\n" GEN_USAGE},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        run_out r = tu_run(cases[i].args);
        ck_assert_int_eq(r.status, 2);
        ck_assert_str_eq(r.err, cases[i].err);
        tu_run_free(&r);
    }
}
END_TEST

/* A runtime capture given to run (its folder, or its deps.json) is no graph: the error says so and names
 * the import that makes one. It said only "is a directory" or "ptosim_graph: missing required field". */
START_TEST(a_capture_given_to_run_points_to_import)
{
    const char *dir = tu_tmpdir();
    char *deps = tu_write(dir, "deps.json", "{\"tasks\": []}\n");
    char want[8192];
    const char *run_dir[] = {"run", dir, NULL};
    run_out r = tu_run(run_dir);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim: %s: is a directory, not a graph file\nptosim: %s is a runtime capture, not a graph: make a "
             "graph of it first with 'ptosim import %s > graph.jsonl', then run graph.jsonl\n",
             dir, dir, dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    const char *run_deps[] = {"run", deps, NULL};
    r = tu_run(run_deps);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim: %s:1: ptosim_graph: missing required field (line 1 must be the graph header)\nptosim: %s "
             "is a runtime capture, not a graph: make a graph of it first with 'ptosim import %s > "
             "graph.jsonl', then run graph.jsonl\n",
             deps, deps, dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* a folder that is no capture keeps its one line */
    char *other = tu_write(dir, "x.txt", "x");
    const char *run_tmp[] = {"run", TRACE(""), NULL};
    r = tu_run(run_tmp);
    ck_assert_int_eq(r.status, 3);
    ck_assert_ptr_null(strstr(r.err, "runtime capture"));
    tu_run_free(&r);
    free(other);
    free(deps);
}
END_TEST

/* The messages the converted commands gave before their tables, byte for byte (sim/main.c's, cli.c's,
 * sweep.c's, conform.c's and gen.c's parsers of the time). */
START_TEST(the_converted_commands_keep_their_messages)
{
    static const struct {
        const char *args[8];
        const char *err;
    } cases[] = {
        {{"run", TRACE("chain3.jsonl"), "-o"}, "ptosim: --work-dir: missing value\n" TU_USAGE_RUN},
        {{"run", TRACE("chain3.jsonl"), "--ring-heap"}, "ptosim: --ring-heap: missing value\n" TU_USAGE_RUN},
        {{"run", TRACE("chain3.jsonl"), "--quiet=1"},
         "ptosim: unknown option '--quiet=1' (ptosim run --help lists the options)\n" TU_USAGE_RUN},
        {{"run", TRACE("chain3.jsonl"), "--cfg"},
         "ptosim: unknown option '--cfg' (ptosim run --help lists the options)\n" TU_USAGE_RUN},
        {{"run", "--"}, "ptosim: unknown option '--' (ptosim run --help lists the options)\n" TU_USAGE_RUN},
        {{"run", TRACE("chain3.jsonl"), "--perfetto="}, "ptosim: --perfetto: empty FILE name\n" TU_USAGE_RUN},
        {{"run", TRACE("chain3.jsonl"), "--seed", "x"},
         "ptosim: --seed: 'x' is not an integer in [0, 2^64-1]\n" TU_USAGE_RUN},
        {{"run", TRACE("chain3.jsonl"), "--repeat=0"},
         "ptosim: --repeat: '0' is not an integer in [1, 10000]\n" TU_USAGE_RUN},
        {{"tune", TRACE("chain3.jsonl"), "--max-trials"},
         "ptosim tune: --max-trials needs an integer in [0, 10000]\n" TU_USAGE_TUNE},
        {{"tune", TRACE("chain3.jsonl"), "--bogus"},
         "ptosim tune: unknown option '--bogus' (ptosim tune --help and ptosim run --help list the options)\n"
             TU_USAGE_TUNE},
        {{"validate", "--x", TRACE("chain3.jsonl")},
         "ptosim validate: one GRAPH at a time\nusage: ptosim validate GRAPH (ptosim validate --help)\n"},
        {{"validate", "--x"},
         "ptosim validate: unknown option\nusage: ptosim validate GRAPH (ptosim validate --help)\n"},
        {{"import", "-j"}, "ptosim import: -j needs a value\n" USAGE_IMPORT},
        {{"import", "--jobs"}, "ptosim import: --jobs needs a value\n" USAGE_IMPORT},
        {{"import", "--kernel="}, "ptosim import: --kernel needs a value\n" USAGE_IMPORT},
        {{"import", "-j", ""}, "ptosim import: -j needs a value\n" USAGE_IMPORT},
        {{"import", "--costs="},
         "ptosim import: --costs needs swimlane, model, perf-sim or a file\n" USAGE_IMPORT},
        {{"import", "--shared-cache=1"}, "ptosim import: --shared-cache=1: unknown option\n" USAGE_IMPORT},
        {{"import", "--", "d"}, "ptosim import: --: unknown option\n" USAGE_IMPORT},
        {{"import", "d", "-"}, "ptosim import: -: unknown option\n" USAGE_IMPORT},
        {{"import", "d", "e"}, "ptosim import: e: one capture folder at a time\n" USAGE_IMPORT},
        {{"import", "--costs", "model"}, "ptosim import: missing DFX_DIR\n" USAGE_IMPORT},
        {{"import", "d", "-j2", "--cache", "c"},
         "ptosim import: --cache is for --costs perf-sim\n" USAGE_IMPORT},
        {{"sweep", TRACE("chain3.jsonl"), "--ring-heap"},
         "ptosim sweep: --ring-heap: missing value\n" TU_USAGE_SWEEP},
        {{"sweep", TRACE("chain3.jsonl"), "--jobs"}, "ptosim sweep: -j: missing value\n" TU_USAGE_SWEEP},
        {{"sweep", TRACE("chain3.jsonl"), "-S"}, "ptosim sweep: --sshlogin: missing value\n" TU_USAGE_SWEEP},
        {{"sweep", "gen:granularity", "--gen-k"}, "ptosim sweep: --gen-k: missing value\n" TU_USAGE_SWEEP},
        {{"sweep", TRACE("chain3.jsonl"), "--collect"},
         "ptosim sweep: --collect DIR takes no other argument (ptosim sweep --collect DIR)\n" TU_USAGE_SWEEP},
        {{"sweep", TRACE("chain3.jsonl"), "--best=d"},
         "ptosim sweep: --best DIR takes no other argument (ptosim sweep --best DIR)\n" TU_USAGE_SWEEP},
        {{"sweep", TRACE("chain3.jsonl"), "--perfetto"},
         "ptosim sweep: --perfetto FILE would have every point write the same file; give --enable-perfetto "
         "for a trace in each point's folder\n" TU_USAGE_SWEEP},
        {{"sweep", TRACE("chain3.jsonl"), "-o", "a", "--resume", "b"},
         "ptosim sweep: give the sweep's folder once: -o DIR, or --resume DIR to go on with the sweep in "
         "it\n" TU_USAGE_SWEEP},
        {{"sweep", TRACE("chain3.jsonl"), "--engine=foo"},
         "ptosim sweep: --engine: 'foo' is not an engine (local, slurm, parallel)\n" TU_USAGE_SWEEP},
        {{"sweep", TRACE("chain3.jsonl"), "--set", "=1,2"},
         "ptosim sweep: --set =1,2: expected KEY=LIST\n" TU_USAGE_SWEEP},
        {{"sweep", TRACE("chain3.jsonl"), "-jobs"},
         "ptosim sweep: -j: 'obs' is not a number of jobs in [1, 1024]\n" TU_USAGE_SWEEP},
        {{"sweep", "--best"}, "ptosim sweep: --best takes one DIR and nothing else\n" TU_USAGE_SWEEP},
        {{"sweep", "-o", "d", TRACE("chain3.jsonl")}, "ptosim sweep: missing GRAPH\n" TU_USAGE_SWEEP},
        {{"conform", "-o"}, "ptosim conform: -o: missing value\n" TU_USAGE_CONFORM},
        {{"conform", "d", "--platform"}, "ptosim conform: --platform: missing value\n" TU_USAGE_CONFORM},
        {{"conform", "-"}, "ptosim conform: -: unknown option\n" TU_USAGE_CONFORM},
        {{"conform", "--", "d"}, "ptosim conform: --: unknown option\n" TU_USAGE_CONFORM},
        {{"conform", "d", "e", "--help"}, "ptosim conform: e: one capture only\n" TU_USAGE_CONFORM},
        {{"conform", "-o", "--help"}, "ptosim conform: missing CAPTURE_DIR\n" TU_USAGE_CONFORM},
        {{"params", "-p"},
         "ptosim params: --platform: missing value\nusage: ptosim params [-p NAME|FILE] (ptosim "
         "params --help)\n"},
        {{"params", "-"},
         "ptosim params: -: unknown option\nusage: ptosim params [-p NAME|FILE] (ptosim params "
         "--help)\n"},
        {{"params", "x"},
         "ptosim params: x: takes no argument (-p NAME|FILE names the platform)\nusage: ptosim "
         "params [-p NAME|FILE] (ptosim params --help)\n"},
        /* gen: its word the kind, then the kind's parameters in order, each message naming the kind */
        {{"gen", "-x"}, "ptosim gen: -x: unknown kind; " GEN_KINDS GEN_USAGE},
        {{"gen", "--", "chain"}, "ptosim gen: --: unknown kind; " GEN_KINDS GEN_USAGE},
        {{"gen", "chain", "--m=3"},
         "ptosim gen: chain: --m: unknown parameter; chain takes --n, --cost-ns\n" GEN_USAGE},
        {{"gen", "chain", "--", "--n", "3"},
         "ptosim gen: chain: --: unknown parameter; chain takes --n, --cost-ns\n" GEN_USAGE},
        {{"gen", "chain", "-n", "3"}, "ptosim gen: chain: -n: expected --PARAM VALUE\n" GEN_USAGE},
        {{"gen", "chain", "-"}, "ptosim gen: chain: -: expected --PARAM VALUE\n" GEN_USAGE},
        {{"gen", "chain", "--bogus", "1", "--n", "x"},
         "ptosim gen: chain: --bogus: unknown parameter; chain takes --n, --cost-ns\n" GEN_USAGE},
        {{"gen", "chain", "--n", "x", "--bogus"},
         "ptosim gen: chain: --n: must be an integer in [1, 1000000000], got 'x'\n" GEN_USAGE},
        {{"gen", "chain", "--n", "--help"},
         "ptosim gen: chain: --n: must be an integer in [1, 1000000000], got '--help'\n" GEN_USAGE},
        {{"gen", "chain", "--n="},
         "ptosim gen: chain: --n: must be an integer in [1, 1000000000], got ''\n" GEN_USAGE},
        {{"gen", "chain", "--cost-ns"}, "ptosim gen: chain: --cost-ns: missing value\n" GEN_USAGE},
        {{"gen", "random", "--fat", "+0.5"},
         "ptosim gen: random: --fat: must be a number in [0, 1], got '+0.5'\n" GEN_USAGE},
        {{"gen", "decode_layer", "--variant", "fa"},
         "ptosim gen: decode_layer: --variant: must be one of fa_fused, qwen3_14b_decode, got "
         "'fa'\n" GEN_USAGE},
        {{"gen", "paged_attention", "--block-table", ""},
         "ptosim gen: paged_attention: --block-table: must not be empty\n" GEN_USAGE},
        /* report: its first word decides, after all of them */
        {{"report"}, "ptosim report: missing DIR\n" TU_USAGE_REPORT},
        {{"report", "-x", "a"}, "ptosim report: unknown option\n" TU_USAGE_REPORT},
        {{"report", "-"}, "ptosim report: unknown option\n" TU_USAGE_REPORT},
        {{"report", "--"}, "ptosim report: unknown option\n" TU_USAGE_REPORT},
        {{"report", "a", "-x"}, "ptosim report: one DIR at a time\n" TU_USAGE_REPORT},
        /* overhead: in order */
        {{"overhead", "x", "--deps-json"}, "ptosim overhead: --deps-json needs a file\n" TU_USAGE_OVERHEAD},
        {{"overhead", "--deps-jsonx"},
         "ptosim overhead: --deps-jsonx: unknown option; did you mean --deps-json?\n" TU_USAGE_OVERHEAD},
        {{"overhead", "-"}, "ptosim overhead: -: unknown option\n" TU_USAGE_OVERHEAD},
        {{"overhead", "a", "b", "-h"},
         "ptosim overhead: b: one DIR or swimlane at a time\n" TU_USAGE_OVERHEAD},
        {{"overhead", "a", "-x", "b"}, "ptosim overhead: -x: unknown option\n" TU_USAGE_OVERHEAD},
        {{"overhead", "--deps-json", "-h"},
         "ptosim overhead: missing DIR or SWIMLANE.json\n" TU_USAGE_OVERHEAD},
        {{"overhead", "--deps-json="}, "ptosim overhead: missing DIR or SWIMLANE.json\n" TU_USAGE_OVERHEAD},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        run_out r = tu_run(cases[i].args);
        ck_assert_msg(r.status == 2, "%s %s: exit %d", cases[i].args[0], cases[i].args[1], r.status);
        ck_assert_str_eq(r.err, cases[i].err);
        tu_run_free(&r);
    }
    /* -h anywhere in validate and sweep (even before GRAPH), and in tune even as the value of a run option
     * it passes on */
    const char *v[] = {"validate", "--x", "y", "--help", NULL}, *t[] = {"tune", "g", "--set", "--help", NULL};
    const char *sw[] = {"sweep", "-o", "--bogus", "--parallel-args", "-h", NULL};
    run_out r = tu_run(v);
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_starts(r.out, "usage: ptosim validate GRAPH\n"));
    tu_run_free(&r);
    r = tu_run(sw);
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_starts(r.out, "usage: ptosim sweep GRAPH"));
    tu_run_free(&r);
    r = tu_run(t);
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_starts(r.out, "usage: ptosim tune GRAPH"));
    tu_run_free(&r);
    /* gen: -h, --help or help as the kind is gen's help; after the kind, where a parameter may be, the kind's
     */
    static const char *const gen_helps[][5] = {
        {"gen", "help", "chain", NULL},
        {"gen", "-h", "--n", NULL},
        {"gen", "chain", "--n", "5", "-h"},
        {"gen", "chain", "--help", "--n", "x"},
    };
    for (int i = 0; i < 4; i++) {
        const char *args[6] = {NULL};
        memcpy(args, gen_helps[i], sizeof(gen_helps[i]));
        r = tu_run(args);
        ck_assert_int_eq(r.status, 0);
        ck_assert_str_eq(r.err, "");
        ck_assert(tu_starts(r.out, i < 2 ? "usage: ptosim gen KIND" : "usage: ptosim gen chain [--PARAM"));
        tu_run_free(&r);
    }
    /* report: -h anywhere, after "--" too; overhead: where an option may be, before any error */
    const char *rh[] = {"report", "-x", "b", "--", "-h", NULL}, *oh[] = {"overhead", "-h", "a", "b", NULL};
    r = tu_run(rh);
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_starts(r.out, "usage: ptosim report DIR [-o OUT]\n"));
    tu_run_free(&r);
    r = tu_run(oh);
    ck_assert_int_eq(r.status, 0);
    ck_assert(tu_starts(r.out, "usage: ptosim overhead DIR"));
    tu_run_free(&r);
}
END_TEST

Suite *suite_opts(void)
{
    Suite *s = suite_create("opts");
    TCase *tc = tcase_create("tables");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, the_commands_with_a_table_are_the_tables_the_tests_walk);
    tcase_add_test(tc, every_option_of_every_table_is_in_its_help_its_completion_and_the_man_page);
    tcase_add_test(tc, completion_answers_values_and_options_as_the_tables_say);
    tcase_add_test(tc, the_converted_commands_keep_their_messages);
    tcase_add_test(tc, a_near_miss_of_an_option_or_a_value_gets_did_you_mean);
    tcase_add_test(tc, a_capture_given_to_run_points_to_import);
    suite_add_tcase(s, tc);
    tc = tcase_create("parser");
    tcase_add_test(tc, the_parser_takes_every_form_and_says_what_is_wrong);
    tcase_add_test(tc, help_prints_the_options_section_from_the_table);
    tcase_add_test(tc, the_completer_offers_by_kind_and_names);
    tcase_add_test(tc, a_family_more_words_and_a_help_in_sections);
    suite_add_tcase(s, tc);
    return s;
}

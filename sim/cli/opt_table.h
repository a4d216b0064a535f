/* opt_table.h - opt_: a command's options declared once, in a table its parsing, help and completion read. */
/* As git's parse-options: a row per option (names, value, completion kind, help, RunConfig field, checker);
 * one parser walks argv against the table, the --help options section and the bash completion (through the
 * hidden `ptosim __complete`) are printed from it, and a test walks every table against all three. */
#ifndef PTOSIM_OPT_TABLE_H
#define PTOSIM_OPT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How an option takes its value. */
typedef enum {
    OPT_FLAG,     /* none: --x (and -x); --x=V is an unknown option */
    OPT_VALUE,    /* required: --x V, --x=V, -xV, -x V */
    OPT_OPTIONAL, /* optional: --x or --x=V (with OPT_NEXT_DIGIT, also --x D for one digit D) */
    OPT_PREFIX,   /* attached: --x=V, the whole word being the value (SimGrid's --cfg=...) */
} opt_arg;

/* What a value is, for completion: a kind gives the directive `ptosim __complete` prints. */
typedef enum {
    OPT_KIND_NONE,     /* nothing to offer (and, as a table's operand kind, no operands) */
    OPT_KIND_FILE,     /* "files" */
    OPT_KIND_DIR,      /* "folders" */
    OPT_KIND_PLATFORM, /* a platform's name (the platform folder's NAME.json) or "files *.json" */
    OPT_KIND_NUMBER,   /* an integer: nothing to offer */
    OPT_KIND_LIST,     /* a value or comma-separated values: nothing to offer */
    OPT_KIND_TEXT,     /* free text (KEY=VALUE): nothing to offer */
    OPT_KIND_CHOICE,   /* one of the row's choices */
} opt_kind;

/* Row flags. OPT_NEXT_DIGIT: for OPT_OPTIONAL, a lone digit as the next word is its value, as the runtime's
 * CLI has it. OPT_PASS: another command's option this one passes on (parsed with rest, see opt_parse),
 * in its --help and completion, not stored. OPT_FAMILY: a family of long options, the name's part before
 * its first capital a prefix ("gen-PARAM": --gen-k, --gen-n=5, any word starting --gen-), each taking its
 * value as OPT_VALUE does; the table's more() completes their names. */
#define OPT_NEXT_DIGIT 1u
#define OPT_PASS 2u
#define OPT_FAMILY 4u

typedef struct opt_def opt_def;

/* Checks and stores an option's value in dest (the command's options struct): word is the option as given
 * ("-o", "--work-dir=x"), value its value (NULL for OPT_FLAG and an optional value not given; the whole
 * word for OPT_PREFIX). Returns 0, or -1 with the message in err. */
typedef int (*opt_store_fn)(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                            size_t errlen);

/* One option. */
struct opt_def {
    const char *name;      /* long name without "--" ("work-dir"), or NULL */
    char letter;           /* short name ('o'), or 0 */
    opt_arg arg;           /* how it takes its value */
    opt_kind kind;         /* what the value is, for completion */
    const char *choices;   /* words completion offers for the value (blank-separated), or NULL */
    double min, max;       /* a number's range, for a store that checks it (gen's parameters); else 0, 0 */
    const char *meta;      /* the value's name in --help ("DIR"); NULL for OPT_FLAG */
    const char *help;      /* its help: a line, a '\n' before each further line */
    const char *runconfig; /* the RunConfig (or CallConfig) field it sets, or NULL */
    opt_store_fn store;    /* checks and stores the value; NULL stores nothing */
    size_t off;            /* for store: where in dest (opt_store_true, opt_store_text) */
    int id;                /* for store: which knob or field */
    const char *missing;   /* the message when the value is missing: a printf format with at most one %s,
                            * the option as given ("-j", "--jobs"); NULL: "--NAME: missing value" */
    unsigned flags;        /* OPT_NEXT_DIGIT, OPT_PASS */
};

/* One command's options. */
typedef struct opt_table {
    const char *cmd;     /* "run" */
    const opt_def *opts; /* in the order --help lists them; -h/--help is implied, listed last */
    int nopts;
    opt_kind operand_kind; /* what its operands are, for completion (OPT_KIND_NONE: it takes none) */
    /* an operand (a word that is no option: "-" is one): stores it, or returns -1 with a message; NULL:
     * operands go to rest */
    int (*operand)(const char *word, void *dest, char *err, size_t errlen);
    /* the message for an unknown option: a printf format with at most one %s, the word; NULL: t->operand
     * judges an unknown option too (gen's kinds word theirs by what the word looks like) */
    const char *unknown;
    bool help_anywhere; /* -h/--help anywhere (even as a value) asks for the help, before any check */
    bool dashdash;      /* "--" ends the options: every word after it is an operand */
    const struct opt_table *pass; /* the table of the options it passes on (tune: run's), which completion
                                   * offers too, or NULL */
    /* completion's words only the command knows (an OPT_FAMILY's names, operands it makes up): prints a
     * "word W" line (opt_complete) for each W beginning with words[nwords - 1], the word being completed,
     * an option's name when option is true, else an operand; NULL: none */
    void (*more)(int nwords, char **words, bool option, FILE *out);
    /* the i-th (from 0; NULL past the last) of the tables its first operand names by their cmd, each taking
     * the words after that operand (gen's kinds and their parameters), or NULL. opt_parse does not descend:
     * the command parses those words with the table named; completion and opt_list read them. */
    const struct opt_table *(*sub)(int i);
} opt_table;

#define OPT_COUNT(rows) ((int)(sizeof(rows) / sizeof((rows)[0])))

/* Parses argv (the words after the command's name) against t: each option's store is called with dest
 * in the order given (a repeated option is stored again), each operand goes to t->operand. With rest
 * (room for argc words), the words t does not know (unknown options, operands when t->operand is NULL,
 * OPT_PASS options) are put there in order, *nrest counting them, for the parser of the command they
 * are passed to. Returns 0, 1 when -h or --help asks for the help (nothing printed), or -1 with the
 * message in err: a missing value ("--NAME: missing value" or the row's own), an unknown option
 * (t->unknown, or what t->operand said of it when t->unknown is NULL), or what a store or t->operand
 * said. */
int opt_parse(const opt_table *t, int argc, char **argv, void *dest, const char **rest, int *nrest, char *err,
              size_t errlen);

/* Prints t's options section: a line per row ("  -o, --work-dir DIR   help"; "--x[=META]" for an
 * optional value, "--x=META" for a prefix one), a help's further lines under its first, the help
 * column two past the widest option, then "-h, --help  this text". */
void opt_help(const opt_table *t, FILE *out);

/* As opt_help, rows from to to - 1 of t alone (a help in sections, each a slice of the table): the help
 * column is the whole table's, and -h/--help follows when to is t->nopts. */
void opt_help_rows(const opt_table *t, int from, int to, FILE *out);

/* The row of t (or, when pass is true, of t->pass) a word names ("--x", "--x=V", "-x", "-xV"), or NULL. */
const opt_def *opt_find(const opt_table *t, const char *word, bool pass);

/* Completes the last of words (the arguments after the command's name, words[nwords - 1] being
 * completed; nwords >= 1), printing one line per candidate: "word W" (W beginning with what is being
 * completed), or a directive for the shell: "files", "files GLOB", "folders". An option's value gets its
 * kind's (its choices first; a platform: the names of platform_dir's NAME.json, then "files *.json"), a
 * word beginning with '-' the options of t and t->pass (then t->more's), any other word t->more's and
 * t's operand_kind. With t->sub, the first operand gets the names of the sub-tables, and the words after it
 * are completed by the table it names (nothing when it names none). Bash's split of "--x=V" into "--x" "="
 * "V" is understood. */
void opt_complete(const opt_table *t, int nwords, char **words, const char *platform_dir, FILE *out);

/* Prints each option name of t, one a line: "--name" (a prefix one as "--name=", a family as its name,
 * "--gen-PARAM"), then "-x", then those of t's sub-tables not printed yet, and last -h and --help (what
 * `ptosim __options CMD` lists for scripts/check_manpage.sh, where a capital stands for any word). */
void opt_list(const opt_table *t, FILE *out);

/* The word of words (blank-separated: a row's choices, option names) that word nearly spells -- one edit
 * (a letter added, dropped, changed or two swapped; case and '_' for '-' count none) for a word of up to 4
 * letters, two for a longer one -- copied into out; the nearest, the first of equals; NULL when none is
 * (word itself, exactly, is none).
 * For "did you mean" in every command's messages: an unknown option, a value that is none of its choices. */
const char *opt_near(const char *words, const char *word, char *out, size_t outlen);

/* For a command that hands the words it does not know to run's parser (tune, sweep): when err holds run's
 * unknown-option message, it is rewritten to name both --help pages, with the near miss among own's options
 * when run's had none ("unknown option '--engin' (ptosim sweep --help and ptosim run --help list the
 * options); did you mean --engine?"). Any other message is left as it is. */
void opt_unknown_passed(const opt_table *own, const char *cmd, char *err, size_t errlen);

/* Stores: true into the bool at d->off of dest; value into the const char * at d->off. */
int opt_store_true(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                   size_t errlen);
int opt_store_text(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                   size_t errlen);

#endif

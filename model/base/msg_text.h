/* msg_text.h - msgtext_: a message's text made safe to print, every byte a terminal could act on escaped. */
/* Messages quote what inputs hold (names, values, keys, file names): a graph someone sent may hold
 * \u001b and \u0007, which would clear a screen, set a title or write the clipboard when printed. */
#ifndef PTOSIM_MSG_TEXT_H
#define PTOSIM_MSG_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Copies src into dst (n > 0 bytes, NUL-terminated) with every C0 control, DEL, C1 control (U+0080 to
 * U+009F) and byte that is not part of valid UTF-8 written as \xHH (two lowercase hex digits per byte),
 * and everything else (printable ASCII and UTF-8 characters) as it is: text without such bytes comes out
 * byte for byte. What does not fit is cut before an escape or a character, never inside one. Returns
 * the length written. */
size_t msgtext_escape(char *dst, size_t n, const char *src);

/* msgtext_escape of the message in msg, in place: msg is a buffer of n bytes. The one function every
 * message that quotes an input passes through before it is printed
 * (docs/reference/exit-status.md §"Bytes a terminal would act on"). */
void msgtext_fix(char *msg, size_t n);

/* Prints the message fmt formats to f as one line: escaped by msgtext_escape, then a newline, in one
 * write. Returns 0, or -1 when it could not be written (or formatted: out of memory). */
int msgtext_print(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* msgtext_print with the arguments in ap. */
int msgtext_vprint(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif

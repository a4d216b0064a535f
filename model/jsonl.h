/* jsonl.h - a fast strict JSON parser for one graph line, building cJSON nodes (the reader's hot path). */
#ifndef PTOSIM_JSONL_H
#define PTOSIM_JSONL_H

#include <cJSON.h>
#include <stddef.h>

/* Parses the n bytes at s as exactly one JSON value (RFC 8259; surrounding
 * whitespace allowed) into cJSON nodes allocated through cJSON's hooks, so
 * cJSON_Delete frees them. Returns NULL on malformed input with *err_at
 * pointing at the first offending byte. */
cJSON *jsonl_parse(const char *s, size_t n, const char **err_at);

#endif

/* rterr.h - the runtime's error codes with their names, details and hints (runtime.md §1.8). */
#ifndef PTOSIM_RTERR_H
#define PTOSIM_RTERR_H

/* Name of a runtime error code ("SCOPE_DEADLOCK"), or "UNKNOWN". */
const char *rterr_name(int code);

/* One-line description of what the code means. */
const char *rterr_detail(int code);

/* What to do about it. */
const char *rterr_hint(int code);

/* Name of an ACL error the host reports after a device failure
 * ("ACL_ERROR_RT_AICPU_EXCEPTION"), or "UNKNOWN" (hardware.md §3.4). */
const char *rterr_acl_name(int code);

/* Its one-line meaning (docs/troubleshooting/device-error-codes.md). */
const char *rterr_acl_detail(int code);

#endif

/* simgrid_calls.h - SimGrid's API as simgrid_run.c and collector.c call it: through sgload_'s pointers. */
/* Included after SimGrid's headers, so each name keeps its declared type. */
#ifndef PTOSIM_SIMGRID_CALLS_H
#define PTOSIM_SIMGRID_CALLS_H

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/mailbox.h>
#include <simgrid/semaphore.h>
#include <xbt/log.h>

/* Every SimGrid function ptosim calls (called through the pointers sgload_open loads). */
#define SGLOAD_FUNCS(X)                                                                                      \
    X(sg_actor_by_pid)                                                                                       \
    X(sg_actor_daemonize)                                                                                    \
    X(sg_actor_get_pid)                                                                                      \
    X(sg_actor_init)                                                                                         \
    X(sg_actor_on_exit)                                                                                      \
    X(sg_actor_self)                                                                                         \
    X(sg_actor_self_get_data)                                                                                \
    X(sg_actor_set_data)                                                                                     \
    X(sg_actor_sleep_for)                                                                                    \
    X(sg_actor_sleep_until)                                                                                  \
    X(sg_actor_start_)                                                                                       \
    X(sg_comm_wait)                                                                                          \
    X(sg_host_by_name)                                                                                       \
    X(sg_host_get_name)                                                                                      \
    X(sg_host_is_on)                                                                                         \
    X(sg_link_by_name)                                                                                       \
    X(sg_link_count)                                                                                         \
    X(sg_link_get_name)                                                                                      \
    X(sg_link_list)                                                                                          \
    X(sg_link_set_bandwidth)                                                                                 \
    X(sg_mailbox_by_name)                                                                                    \
    X(sg_mailbox_get_async)                                                                                  \
    X(sg_mailbox_put_async)                                                                                  \
    X(sg_sem_acquire)                                                                                        \
    X(sg_sem_acquire_timeout)                                                                                \
    X(sg_sem_init)                                                                                           \
    X(sg_sem_release)                                                                                        \
    X(simgrid_get_clock)                                                                                     \
    X(simgrid_init)                                                                                          \
    X(simgrid_load_platform)                                                                                 \
    X(simgrid_run)                                                                                           \
    X(xbt_log_control_set)

#define SGLOAD_EXTERN(f) extern __typeof__(f) *sgload_##f;
SGLOAD_FUNCS(SGLOAD_EXTERN)
#undef SGLOAD_EXTERN

#define sg_actor_by_pid (*sgload_sg_actor_by_pid)
#define sg_actor_daemonize (*sgload_sg_actor_daemonize)
#define sg_actor_get_pid (*sgload_sg_actor_get_pid)
#define sg_actor_init (*sgload_sg_actor_init)
#define sg_actor_on_exit (*sgload_sg_actor_on_exit)
#define sg_actor_self (*sgload_sg_actor_self)
#define sg_actor_self_get_data (*sgload_sg_actor_self_get_data)
#define sg_actor_set_data (*sgload_sg_actor_set_data)
#define sg_actor_sleep_for (*sgload_sg_actor_sleep_for)
#define sg_actor_sleep_until (*sgload_sg_actor_sleep_until)
/* actor.h's sg_actor_start is an inline wrapper of sg_actor_start_ */
#define sg_actor_start(a, code, argc, argv)                                                                  \
    (*sgload_sg_actor_start_)(a, code, argc, (const char *const *)(argv))
#define sg_comm_wait (*sgload_sg_comm_wait)
#define sg_host_by_name (*sgload_sg_host_by_name)
#define sg_host_get_name (*sgload_sg_host_get_name)
#define sg_host_is_on (*sgload_sg_host_is_on)
#define sg_link_by_name (*sgload_sg_link_by_name)
#define sg_link_count (*sgload_sg_link_count)
#define sg_link_get_name (*sgload_sg_link_get_name)
#define sg_link_list (*sgload_sg_link_list)
#define sg_link_set_bandwidth (*sgload_sg_link_set_bandwidth)
#define sg_mailbox_by_name (*sgload_sg_mailbox_by_name)
#define sg_mailbox_get_async (*sgload_sg_mailbox_get_async)
#define sg_mailbox_put_async (*sgload_sg_mailbox_put_async)
#define sg_sem_acquire (*sgload_sg_sem_acquire)
#define sg_sem_acquire_timeout (*sgload_sg_sem_acquire_timeout)
#define sg_sem_init (*sgload_sg_sem_init)
#define sg_sem_release (*sgload_sg_sem_release)
#define simgrid_get_clock (*sgload_simgrid_get_clock)
#define simgrid_init (*sgload_simgrid_init)
#define simgrid_load_platform (*sgload_simgrid_load_platform)
#define simgrid_run (*sgload_simgrid_run)
#define xbt_log_control_set (*sgload_xbt_log_control_set)

#endif

// Counts heap allocations made by one thread while counting is on, so tests can prove a code
// path allocates nothing (glibc's malloc hooks are gone since 2.34; this interposes malloc and
// friends in the test executable and forwards to glibc's __libc_* entry points).
#ifndef LEAMOJI_MALLOC_COUNTER_H
#define LEAMOJI_MALLOC_COUNTER_H

/// 1 when the counter is built in (Linux/glibc, not under a sanitizer, which owns malloc).
int leamoji_malloc_counter_available(void);
/// Starts counting the calling thread's allocations from zero.
void leamoji_malloc_counter_start(void);
/// Stops counting and returns how many allocations (malloc, calloc, realloc, aligned
/// variants) the calling thread made since `leamoji_malloc_counter_start`.
long leamoji_malloc_counter_stop(void);

#endif

// Temporary files removed on a fatal signal. Everything the handler touches is
// preallocated and lock-free: a fixed table of paths, each with an atomic state.
#include "COutputGuard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

enum { GUARD_SLOTS = 128, GUARD_PATH_BYTES = 4096 };

// A slot is free (0), being filled (1) or armed (2); the handler only reads
// armed slots. A slot's path is never cleared, so a handler racing an
// unregister sees either the old path (gone already, or about to be) or skips it.
static char guard_paths[GUARD_SLOTS][GUARD_PATH_BYTES];
static atomic_int guard_states[GUARD_SLOTS];
static atomic_int guard_installed;

// Requests to stop first (GUARD_STOP_COUNT of them), then crashes.
static const int guard_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
enum { GUARD_SIGNAL_COUNT = sizeof(guard_signals) / sizeof(guard_signals[0]), GUARD_STOP_COUNT = 4 };
static struct sigaction guard_previous[GUARD_SIGNAL_COUNT];

int glass_output_guard_register(const char *path) {
  size_t length = strlen(path);
  if (length >= GUARD_PATH_BYTES) return -1;
  for (int slot = 0; slot < GUARD_SLOTS; slot++) {
    int expected = 0;
    if (atomic_compare_exchange_strong(&guard_states[slot], &expected, 1)) {
      memcpy(guard_paths[slot], path, length + 1);
      atomic_store(&guard_states[slot], 2);
      return slot;
    }
  }
  return -1;
}

void glass_output_guard_unregister(int slot) {
  if (slot < 0 || slot >= GUARD_SLOTS) return;
  atomic_store(&guard_states[slot], 0);
}

static void guard_remove_all(void) {
  for (int slot = 0; slot < GUARD_SLOTS; slot++) {
    if (atomic_load(&guard_states[slot]) == 2) unlink(guard_paths[slot]);  // async-signal-safe
  }
}

// With stops deferred (a batch), the first SIGINT or SIGTERM is only recorded
// here for the program to act on; a second one ends the process as usual.
static atomic_int guard_defer_stops;
static atomic_int guard_stop_signal;

static void guard_handler(int signal_number, siginfo_t *info, void *context) {
  int saved_errno = errno;
  if ((signal_number == SIGINT || signal_number == SIGTERM) && atomic_load(&guard_defer_stops)) {
    int expected = 0;
    if (atomic_compare_exchange_strong(&guard_stop_signal, &expected, signal_number)) {
      errno = saved_errno;
      return;
    }
  }
  guard_remove_all();
  int index = 0;
  while (index < GUARD_SIGNAL_COUNT && guard_signals[index] != signal_number) index++;
  if (index < GUARD_SIGNAL_COUNT) {
    const struct sigaction *previous = &guard_previous[index];
    if (previous->sa_flags & SA_SIGINFO) {
      if (previous->sa_sigaction != NULL) previous->sa_sigaction(signal_number, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
      previous->sa_handler(signal_number);
    }
  }
  // Die of the signal: with the default action restored, the signal raised here is
  // delivered as soon as the handler returns and unblocks it (a real fault would
  // also recur on return, with the same result).
  struct sigaction default_action;
  memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, NULL);
  raise(signal_number);
  errno = saved_errno;
}

int glass_output_guard_install(void) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&guard_installed, &expected, 1)) return 0;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = guard_handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  // A second request to stop waits for the first one's exit. Crash signals stay
  // unblocked: the backtracer run from the handler catches its own faults.
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < GUARD_STOP_COUNT; i++) sigaddset(&action.sa_mask, guard_signals[i]);
  sigset_t handled;
  sigemptyset(&handled);
  for (int i = 0; i < GUARD_SIGNAL_COUNT; i++) {
    struct sigaction current;
    if (sigaction(guard_signals[i], NULL, &current) != 0) continue;
    // An inherited "ignore" (nohup, a shell's background job) is the parent's
    // decision: the signal does not end the process, so nothing needs removing.
    if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) continue;
    guard_previous[i] = current;
    if (sigaction(guard_signals[i], &action, NULL) == 0) sigaddset(&handled, guard_signals[i]);
  }
  // An inherited mask is no such decision: a parent that spawns from a thread
  // blocking them (libdispatch's workers block SIGINT, SIGTERM, SIGHUP, SIGQUIT)
  // would leave the process unstoppable by them. Threads started later inherit this.
  pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
  return 0;
}

void glass_output_guard_defer_stops(int defer) { atomic_store(&guard_defer_stops, defer ? 1 : 0); }

int glass_output_guard_stop_signal(void) { return atomic_load(&guard_stop_signal); }

void glass_output_guard_die_of(int signal_number) {
  guard_remove_all();
  struct sigaction default_action;
  memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, NULL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &only, NULL);
  raise(signal_number);
}

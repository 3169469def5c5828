// Private plumbing for GLESGlass: the temporary files an output is being written
// to, removed by a signal handler when the process is interrupted or crashes.
// Only GLESGlass imports it.
#ifndef COUTPUTGUARD_H
#define COUTPUTGUARD_H

/// Installs the handlers, once per process (later calls do nothing). SIGINT,
/// SIGTERM, SIGHUP and SIGQUIT, and the crash signals SIGSEGV, SIGBUS, SIGILL,
/// SIGFPE, SIGABRT and SIGTRAP: remove every registered temporary file, run the
/// handler that was there before (Swift's backtracer prints its report), then die
/// of the signal with its default action. A signal the process inherited as
/// ignored (nohup, a shell's background job) stays ignored; one it inherited as
/// blocked is unblocked in the calling thread (call it from the main thread, before
/// starting others). Returns 0.
int glass_output_guard_install(void);

/// Registers a temporary file for removal on those signals. Returns its slot, or
/// -1 when the path is too long or every slot is taken (the file is then only
/// removed by a later run's sweep of stale temporaries).
int glass_output_guard_register(const char *path);

/// Forgets the slot `glass_output_guard_register` gave (nothing for -1).
void glass_output_guard_unregister(int slot);

/// With `defer` non-zero, the first SIGINT or SIGTERM no longer ends the process:
/// it is recorded (`glass_output_guard_stop_signal`) for the program to stop
/// cleanly; a second one ends the process as above. With 0, they end it at once.
void glass_output_guard_defer_stops(int defer);

/// The SIGINT or SIGTERM recorded while stops were deferred, or 0.
int glass_output_guard_stop_signal(void);

/// Removes every registered temporary file and ends the process by `signal_number`
/// with its default action (a shell then reports 128 + the signal).
void glass_output_guard_die_of(int signal_number);

#endif

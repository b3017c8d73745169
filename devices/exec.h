/*
** The exec device: an external program spoken to over pipes. The command
** runs once, through /bin/sh -c, in its own process group, for the life of
** the device. Each case is written to its stdin as one vector line (A;B;C,
** plus ;scale_a;scale_b;meta for scaled or sparse datapaths; see
** io/vecline.h) and it must answer each, in order, with one line holding the
** D word in hex at the D format's native width, flushing after every line.
** Two protocols (docs/vector-format.md, "The exec protocol"):
**
**   exec:<command> (or exec-framed:<command>), the default: every line
**       carries its case's number, from 0 over the device's life: ladder
**       writes "@<n> A;B;C", the program answers "@<n> D". An answer for
**       any other case than the one due, or without its frame, is an error:
**       answers cannot slip against their cases, so every word stored is
**       proven to be its case's. `ladder eval` answers framed lines this way.
**   exec-unframed:<command>  the legacy protocol, bare lines matched by
**       order, only when the spec asks for it by name. Only the counts are
**       checked: an answer before its case was sent, or more answers than
**       cases, is an error; a program that prints an extra line and drops a
**       later one, or swaps two answers, goes unnoticed.
**
** The program's stderr comes down a pipe that the device drains into a
** file, LADDER_EXEC_STDERR when set (kept), else a temporary file that is
** removed when the device closes without failure; the file keeps the first
** MiB and the last 64 KiB, and says how many bytes between it left out. A failure's message ends with a one-line summary of it: the last
** line written there, the number of lines, and the file's name.
**
** An answer that does not come within LADDER_EXEC_TIMEOUT seconds (default 10)
** of the last one is a timeout. Any failure (the program died, printed
** garbage, answered with the wrong width or frame, timed out) fails the
** device for good. Closing the device kills what is left of the program's
** process group, and SIGINT, SIGTERM or SIGHUP to ladder kills the groups of
** every open exec device before ladder dies of the signal.
*/
#ifndef LADDER_DEVICES_EXEC_H
#define LADDER_DEVICES_EXEC_H

#include "device.h"

/* Starts `command` for instruction dp, speaking the framed protocol when
** framed is 1. Returns LAD_OK, or LAD_EDEVICE when the program cannot be
** started. */
int lad_exec_open(const char *command, const lad_datapath *dp, int framed,
                  lad_device **out, lad_err *err);

#endif

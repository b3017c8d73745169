/*
** The exec device: an external program spoken to over pipes (exec:<command
** line>). The command runs once, through /bin/sh -c, for the life of the
** device; each case is written to its stdin as one vector line (A;B;C, plus
** ;scale_a;scale_b;meta for scaled or sparse datapaths; see io/vecline.h) and
** it must answer each with one line holding the D word in hex at the D
** format's native width, flushing after every line. Its stderr passes through.
**
** An answer that does not come within LADDER_EXEC_TIMEOUT seconds (default 10)
** of the last one is a timeout. Any failure (the program died, printed
** garbage, answered with the wrong width, timed out) fails the device for good:
** the lines in flight can no longer be matched with their cases.
*/
#ifndef LADDER_DEVICES_EXEC_H
#define LADDER_DEVICES_EXEC_H

#include "device.h"

/* Starts `command` for instruction dp. Returns LAD_OK, or LAD_EDEVICE when
** the program cannot be started. */
int lad_exec_open(const char *command, const lad_datapath *dp,
                  lad_device **out, lad_err *err);

#endif

/*
** The sim device: the bit-exact model as a device (sim:<preset or model
** file>). It answers instantly and never fails once open; it is the default
** device, so every command works on a machine without a GPU.
*/
#ifndef LADDER_DEVICES_SIM_H
#define LADDER_DEVICES_SIM_H

#include "device.h"

/* Opens sim:<model> for instruction dp. model is a preset name or a model
** file. Returns LAD_OK; LAD_EDATA for a bad model file; LAD_EUSAGE for an
** unknown model or one whose shape (K, word widths, scales, sparsity)
** differs from dp's. A model file is read once: info.model_file and
** info.model_sha256 say which file and which text. */
int lad_sim_open(const char *model, const lad_datapath *dp, lad_device **out,
                 lad_err *err);

#endif

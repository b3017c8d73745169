#!/bin/sh
# Exits at once, reading nothing: its input pipe closes under the writer.
exit 5

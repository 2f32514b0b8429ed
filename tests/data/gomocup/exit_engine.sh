#!/bin/bash
# Fake Gomocup engine for gomocup_client_test: exits at once, reading nothing.
exit 3

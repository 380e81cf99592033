/* Which cost model prices a platform (models/model.h), and how well.
 *
 * A platform file written by `collsim platform` carries its parameters in a
 * "collsim-model:" comment line (platgen.h, cs_platform_read). From them:
 *  - abg: the ABG model, exact (contention-free, full duplex);
 *  - maxrate and the machines built of per-node zones (hydra, vsc3,
 *    bluewaters): the max-rate model, or the k-lane model when a node has
 *    more than one lane, exact where the schedule is contention-free;
 *  - fat-tree (irene) and dragonfly (theta) machines: the max-rate model with
 *    the platform's alpha, beta and rates. This is an APPROXIMATION: routes
 *    of several hops share switch or router links, and that contention is not
 *    modelled (on irene at p = 96 the model is off from SMPI by 14-34%).
 * Every message carries SMPI's envelope (CS_SMPI_ENVELOPE). */
#ifndef COLLSIM_PLATMODEL_H
#define COLLSIM_PLATMODEL_H

#include <stddef.h>

#include "model.h"
#include "platgen.h"

/* The model of a platform. Returns 1 if the model is exact for it, 0 if it
 * is an approximation; then note (if not NULL) gets one line saying so, e.g.
 * "max-rate approximation of a fat-tree platform (contention in the switches
 * is not modelled)", and is "" otherwise. */
int cs_platform_model(const cs_platform *pl, cs_model *mo, char *note, size_t notelen);

/* The same for a platform file: returns 1 (exact), 0 (approximation, note
 * set) or -1 with a message in err (unreadable, no collsim-model line). */
int cs_platform_model_file(const char *xml, cs_model *mo, char *note, size_t notelen, char *err,
                           size_t errlen);

/* The model of a platform file, whether exact or not: 0, or -1 with err. */
int cs_model_from_platform(const char *xml, cs_model *mo, char *err, size_t errlen);

#endif

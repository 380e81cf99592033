/* Platform -> cost model (platmodel.h). */
#include "platmodel.h"

#include <stdio.h>
#include <string.h>

#include "sizes.h"

int cs_platform_model(const cs_platform *pl, cs_model *mo, char *note, size_t notelen) {
  if (note && notelen) note[0] = '\0';
  if (pl->kind == CS_PLAT_ABG) {
    *mo = cs_model_abg(pl->alpha, pl->beta, pl->gamma);
    mo->net = pl->net;
    mo->local = pl->local;
    mo->copy = pl->copy;
    if (pl->half_duplex) { /* model.h: Rabenseifner's f factors */
      mo->half_duplex = 1;
      mo->f_beta = 0.5;
    }
    return 1;
  }
  memset(mo, 0, sizeof *mo);
  mo->kind = pl->lanes > 1 ? CS_MODEL_LANES : CS_MODEL_MAXRATE;
  mo->alpha = pl->alpha;
  mo->beta = pl->beta;
  mo->gamma = pl->gamma;
  mo->envelope = CS_SMPI_ENVELOPE;
  mo->alpha_l = pl->alpha_l;
  mo->beta_l = pl->beta_l;
  mo->Rb = pl->Rb;
  mo->RN = pl->RN;
  mo->Rx = pl->lanes > 1 ? pl->Rx : 0;
  mo->ppn = pl->ppn;
  mo->lanes = pl->lanes;
  mo->f_alpha = 1; /* full duplex (model.h) */
  mo->f_beta = 1;
  /* local work as the hosts' properties charge it (platgen.c: local_props) */
  mo->local = pl->local;
  mo->copy = pl->copy;
  const char *what = pl->topology == CS_TOPO_FAT_TREE    ? "fat-tree"
                     : pl->topology == CS_TOPO_DRAGONFLY ? "dragonfly"
                                                         : NULL;
  if (!what) return 1;
  if (note && notelen)
    snprintf(note, notelen,
             "%s approximation of a %s platform (contention in the %s is not modelled)",
             mo->kind == CS_MODEL_LANES ? "k-lane" : "max-rate", what,
             pl->topology == CS_TOPO_FAT_TREE ? "switches" : "routers");
  return 0;
}

int cs_platform_model_file(const char *xml, cs_model *mo, char *note, size_t notelen, char *err,
                           size_t errlen) {
  cs_platform pl;
  if (cs_platform_read(xml, &pl, err, errlen)) return -1;
  return cs_platform_model(&pl, mo, note, notelen);
}

int cs_model_from_platform(const char *xml, cs_model *mo, char *err, size_t errlen) {
  return cs_platform_model_file(xml, mo, NULL, 0, err, errlen) < 0 ? -1 : 0;
}

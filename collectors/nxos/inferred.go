package nxos

// inferred prefixes Evidence.Excerpt of a fact that the running-config does not state but that
// was taken from an NX-OS default the configuration leaves in force (checks.Inferred: a pass
// on it is reported as a warning). It stays Known: the value is still the best reading.
const inferred = "inferred: "

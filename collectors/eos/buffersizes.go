package eos

// noBufferSizes is why SW-HEADROOM and SW-ECN-PFC-ORDER skip on this platform.
const noBufferSizes = "the EOS running-config shows no per-priority headroom (xoff) or PFC-trigger sizes: EOS reserves PFC headroom itself for each no-drop priority"

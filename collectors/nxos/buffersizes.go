package nxos

// noBufferSizes is why SW-HEADROOM and SW-ECN-PFC-ORDER skip on this platform.
const noBufferSizes = "the NX-OS QoS configuration shows no headroom (xoff) or PFC-trigger sizes unless `pause buffer-size` is set, which this collector does not read yet"

package remedy

// RoCEClass is the switch traffic class that carries the RoCE priority, and RoCEQueue its
// egress queue, as the port's facts show them (the recipe priority when they are not known).
func (in Input) RoCEClass() int {
	if in.Switch == nil {
		return in.Recipe.RoCEPriority
	}
	return in.Switch.ClassOf(in.Recipe.RoCEPriority)
}

// RoCEQueue is the egress queue of RoCEClass.
func (in Input) RoCEQueue() int {
	if in.Switch == nil {
		return in.RoCEClass()
	}
	return in.Switch.QueueOf(in.RoCEClass())
}

// CNPClass is the class a fix should make CNPs' own: the one the switch already puts the CNP
// DSCP in, when the facts show one other than the RoCE class (designs number it differently:
// qos-group 7 in Cisco's, TC 6 in NVIDIA's); otherwise the recipe's CNP priority. mapped says
// the facts already put the CNP DSCP there.
func (in Input) CNPClass() (class int, mapped bool) {
	if p := in.Switch; p != nil && p.DSCPToTC.Usable() {
		if tc, ok := p.DSCPToTC.Value[in.Recipe.CNPDSCP]; ok && tc != in.RoCEClass() {
			return tc, true
		}
	}
	return in.Recipe.CNPPriority, false
}

// CNPQueue is the egress queue of CNPClass.
func (in Input) CNPQueue() int {
	tc, _ := in.CNPClass()
	if in.Switch == nil {
		return tc
	}
	return in.Switch.QueueOf(tc)
}

// ExtraPFC are the priorities other than the RoCE one whose PFC a fix turns off: those the
// port's facts show PFC on (in either direction), ascending, or every other priority when the
// facts do not say.
func (in Input) ExtraPFC() []int {
	var on [8]bool
	if p := in.Switch; p != nil && p.PFC.Usable() {
		for _, prio := range append(append([]int(nil), p.PFC.Value.RX...), p.PFC.Value.TX...) {
			if prio >= 0 && prio < 8 {
				on[prio] = true
			}
		}
	} else {
		on = [8]bool{true, true, true, true, true, true, true, true}
	}
	var out []int
	for prio, set := range on {
		if set && prio != in.Recipe.RoCEPriority {
			out = append(out, prio)
		}
	}
	return out
}

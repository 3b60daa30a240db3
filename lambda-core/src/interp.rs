//! A call-by-value reference interpreter for λ▷ (paper §2.3, "Soundness").

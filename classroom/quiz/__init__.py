"""The graded quiz drawn from a seed: `draws` (seeded draws, claims, questions), `topics` (the five questions) and
`variants` (a whole variant, written into source/)."""

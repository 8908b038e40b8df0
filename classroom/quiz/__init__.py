"""The graded quiz drawn from a seed: `draws` (seeded draws, claims, questions), `topics` (the five questions),
`variants` (a whole variant), `statements` (the instructor's private statements) and `notebook` (a variant as the
source notebook `classroom quiz-variant` writes into source/)."""

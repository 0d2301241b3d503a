"""A designer's tools beside the editor: expansions outside the repository, card
explanations, skeletons of new cards, card tests and their coverage.

In: a bundled game or game folder, expansion folders (`lumos-expansion.yaml`), card names
and card types. Out: expansions resolved into the files the compiler reads (expansions,
`--with`), a card's data, English and play sites (explain, `lumos explain`), and commented
YAML skeletons filled from the card schema (skeleton, `lumos new card`), card test files
run case by case (cardtests, `lumos test`) and, per folder of cards, the cards with an
effect no passing case exercised (coverage, `lumos test --coverage`).
"""

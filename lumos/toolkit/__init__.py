"""A designer's tools beside the editor: expansions outside the repository, card
explanations, and skeletons of new cards.

In: a bundled game or game folder, expansion folders (`lumos-expansion.yaml`), card names
and card types. Out: expansions resolved into the files the compiler reads (expansions,
`--with`), a card's data, English and play sites (explain, `lumos explain`), and commented
YAML skeletons filled from the card schema (skeleton, `lumos new card`).
"""

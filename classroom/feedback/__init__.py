"""What students and instructors see of a graded notebook: the feedback `page` exporter and its templates, and the
inert content every page is made from (`inert_outputs`, `inert_markdown`, `inert_images`, and the nbconvert filters
`clean_html` and `markdown_math`)."""

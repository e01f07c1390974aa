"""Drawing positions for people (issue 13.4/13.7), one package: the one board renderer
(``boardsvg``: a typed board view as SVG, interactive for the play page, replay and console,
standalone with its legend for the AAR), the page's board model and figure (``board``,
``board_markup``), the AAR's map snapshots (``aar_maps``) and the live regions and console
sections (``regions``, imported by the views and by the Celery pre-draw task alike). Nothing
here imports a view."""

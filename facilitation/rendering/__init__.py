"""Drawing positions for people (issue 13.4/13.7): one package for the board renderer
(``mapsvg``: a typed board view as a standalone SVG map with its legend, used by the AAR and the
replay), the live page's board figure (``board``), the live regions and console sections
(``regions``, imported by the views and by the Celery pre-draw task alike) and the AAR maps
(``aar_maps``). Nothing here imports a view."""

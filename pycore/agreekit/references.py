"""The papers agreekit's coefficients come from, as BibTeX, for the methods paragraph.

:data:`AGREEKIT` is agreekit's own entry, written from ``CITATION.cff`` at the repository root
(``tests/test_methods.py`` checks that its title, version and the paper it cites agree with that
file; the wheel and the browser carry no copy of it). Each other entry is keyed by the name the
methods paragraph cites it by (:mod:`agreekit.methods`), and only data lives here.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    """One work: ``cite``, how the paragraph names it ("Krippendorff 2004"); ``bibtex``, its entry."""

    cite: str
    bibtex: str


AGREEKIT = Reference("agreekit @VERSION@", """@software{agreekit,
  title = {agreekit: chance-corrected agreement for structured annotations},
  author = {{the agreekit authors}},
  version = {@VERSION@},
  license = {MIT},
  note = {Cite with the paper whose measures it computes: Braylan, Alonso and Lease (2022)}
}""")

BRAYLAN_2022 = Reference("Braylan, Alonso & Lease 2022", """@inproceedings{braylan2022,
  title = {Measuring Annotator Agreement Generally across Complex Structured, Multi-object, and Free-text Annotation Tasks},
  author = {Braylan, Alexander and Alonso, Omar and Lease, Matthew},
  booktitle = {Proceedings of the ACM Web Conference 2022},
  pages = {1720--1730},
  year = {2022},
  doi = {10.1145/3485447.3512242}
}""")

KRIPPENDORFF_2004 = Reference("Krippendorff 2004", """@book{krippendorff2004,
  title = {Content Analysis: An Introduction to Its Methodology},
  author = {Krippendorff, Klaus},
  edition = {2},
  publisher = {Sage},
  address = {Thousand Oaks, CA},
  year = {2004}
}""")

KRIPPENDORFF_1995 = Reference("Krippendorff 1995", """@article{krippendorff1995,
  title = {On the Reliability of Unitizing Continuous Data},
  author = {Krippendorff, Klaus},
  journal = {Sociological Methodology},
  volume = {25},
  pages = {47--76},
  year = {1995},
  doi = {10.2307/271061}
}""")

EFRON_TIBSHIRANI_1993 = Reference("Efron & Tibshirani 1993", """@book{efron1993,
  title = {An Introduction to the Bootstrap},
  author = {Efron, Bradley and Tibshirani, Robert J.},
  publisher = {Chapman \\& Hall},
  address = {New York},
  year = {1993},
  doi = {10.1007/978-1-4899-4541-9}
}""")

KUHN_1955 = Reference("Kuhn 1955", """@article{kuhn1955,
  title = {The Hungarian Method for the Assignment Problem},
  author = {Kuhn, Harold W.},
  journal = {Naval Research Logistics Quarterly},
  volume = {2},
  number = {1--2},
  pages = {83--97},
  year = {1955},
  doi = {10.1002/nav.3800020109}
}""")

REZATOFIGHI_2019 = Reference("Rezatofighi et al. 2019", """@inproceedings{rezatofighi2019,
  title = {Generalized Intersection over Union: A Metric and a Loss for Bounding Box Regression},
  author = {Rezatofighi, Hamid and Tsoi, Nathan and Gwak, JunYoung and Sadeghian, Amir and Reid, Ian and Savarese, Silvio},
  booktitle = {Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)},
  pages = {658--666},
  year = {2019},
  doi = {10.1109/CVPR.2019.00075}
}""")

COHEN_1960 = Reference("Cohen 1960", """@article{cohen1960,
  title = {A Coefficient of Agreement for Nominal Scales},
  author = {Cohen, Jacob},
  journal = {Educational and Psychological Measurement},
  volume = {20},
  number = {1},
  pages = {37--46},
  year = {1960},
  doi = {10.1177/001316446002000104}
}""")

FLEISS_1971 = Reference("Fleiss 1971", """@article{fleiss1971,
  title = {Measuring Nominal Scale Agreement among Many Raters},
  author = {Fleiss, Joseph L.},
  journal = {Psychological Bulletin},
  volume = {76},
  number = {5},
  pages = {378--382},
  year = {1971},
  doi = {10.1037/h0031619}
}""")

GWET_2008 = Reference("Gwet 2008", """@article{gwet2008,
  title = {Computing Inter-Rater Reliability and Its Variance in the Presence of High Agreement},
  author = {Gwet, Kilem Li},
  journal = {British Journal of Mathematical and Statistical Psychology},
  volume = {61},
  number = {1},
  pages = {29--48},
  year = {2008},
  doi = {10.1348/000711006X126600}
}""")

WARFIELD_2004 = Reference("Warfield, Zou & Wells 2004", """@article{warfield2004,
  title = {Simultaneous Truth and Performance Level Estimation ({STAPLE}): An Algorithm for the Validation of Image Segmentation},
  author = {Warfield, Simon K. and Zou, Kelly H. and Wells, William M.},
  journal = {IEEE Transactions on Medical Imaging},
  volume = {23},
  number = {7},
  pages = {903--921},
  year = {2004},
  doi = {10.1109/TMI.2004.828354}
}""")

DICE_1945 = Reference("Dice 1945", """@article{dice1945,
  title = {Measures of the Amount of Ecologic Association Between Species},
  author = {Dice, Lee R.},
  journal = {Ecology},
  volume = {26},
  number = {3},
  pages = {297--302},
  year = {1945},
  doi = {10.2307/1932409}
}""")

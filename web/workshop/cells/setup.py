import agreekit
from workshop import *  # note, show, check, np, plt, simulate

ready()

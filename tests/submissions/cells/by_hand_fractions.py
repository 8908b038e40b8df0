from fractions import Fraction

by_hand = [Fraction(1, 2), Fraction(-5, 3), Fraction(7, 6)]

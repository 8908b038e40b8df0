"""What every test of the lesson's package shares: no figure outlives its test."""
import matplotlib.pyplot as plt
import pytest


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")

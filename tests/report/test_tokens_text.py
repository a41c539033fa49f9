"""Tokens as CritPt reports them (issue 20): cached input and reasoning counts where the endpoint
reports them, summed over attempts and named in the summary line."""

from types import SimpleNamespace

from physbench.report.summary import _add_tokens, tokens_text


def test_cached_and_reasoning_tokens_are_summed_and_shown_only_where_reported():
    tokens = {"prompt": 0, "completion": 0, "total": 0}
    _add_tokens(tokens, SimpleNamespace(usage={"prompt_tokens": 1000, "completion_tokens": 300, "total_tokens": 1300,
                                               "cached_tokens": 200, "reasoning_tokens": 100}))
    _add_tokens(tokens, SimpleNamespace(usage={"prompt_tokens": 200, "completion_tokens": 50, "total_tokens": 250}))
    assert tokens == {"prompt": 1200, "completion": 350, "total": 1550, "cached": 200, "reasoning": 100}
    assert tokens_text({"tokens": tokens, "cost_usd": 0.01}) == \
        "1,200 prompt (200 cached), 350 completion (100 reasoning); cost 0.0100 USD"
    plain = {"prompt": 5, "completion": 7, "total": 12}
    assert tokens_text({"tokens": plain, "cost_usd": None}) == "5 prompt, 7 completion"

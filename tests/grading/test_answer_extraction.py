"""Finding the answer in a response, in the seed's order: last balanced box, last answer line,
last equation, last number (MedPhysBench, "Grading details")."""

from physbench.grading.extract import SEARCH_SPAN, answer_line, find_answer, last_box, last_equation, last_number


def test_the_last_balanced_box_wins_over_everything_else():
    text = r"Answer: 5 Gy. First \boxed{1 Gy}, then x = 3 Gy, finally \boxed{2\ \text{Gy}} and 7."
    c = find_answer(text)
    assert c.source == "boxed" and c.text == r"2\ \text{Gy}"


def test_an_unbalanced_last_box_falls_back_to_the_previous_balanced_one():
    text = r"\boxed{1.5 Gy} ... and the final \boxed{2 Gy"
    assert last_box(text)[0] == "1.5 Gy"


def test_box_content_keeps_nested_braces():
    text = r"\boxed{1.018\ \mathrm{c\text{Gy}/MU}}"
    assert last_box(text)[0] == r"1.018\ \mathrm{c\text{Gy}/MU}"


def test_an_equation_chain_in_a_box_is_read_at_its_end():
    c = find_answer(r"\boxed{MU = \frac{180}{0.5678} = 317.0\ \text{MU}}")
    assert c.text.strip() == r"317.0\ \text{MU}"


def test_equals_inside_braces_or_parentheses_is_not_top_level():
    c = find_answer(r"\boxed{317 \text{ MU (with } D = 1.8 \text{ Gy)}}")
    assert c.text.startswith("317")


def test_approximately_counts_as_a_relation():
    assert find_answer(r"\boxed{MU \approx 317 MU}").text.strip() == "317 MU"
    assert find_answer(r"\boxed{MU ≈ 317 MU}").text.strip() == "317 MU"


def test_a_box_without_a_number_falls_through_to_the_answer_line():
    c = find_answer("Final answer: 317 MU\n\\boxed{\\text{see above}}")
    assert c.source == "answer_line" and c.text.strip() == "317 MU"


def test_the_last_answer_line_is_used_without_a_box():
    text = "Answer: 1 Gy\nsome working x = 7\n**Final answer:** 2.5 Gy\nThanks."
    assert find_answer(text).text.strip() == "2.5 Gy"
    assert answer_line("### Final Answer\n\n317 MU\n").strip() == "317 MU"
    assert answer_line("The final answer is 42 cm").strip() == "42 cm"
    assert answer_line("Answering this needs care: 3 Gy") is None


def test_an_answer_line_with_an_equation_is_read_after_its_last_equals():
    assert find_answer("Final answer: MU = 180/0.5678 = 317 MU").text.strip() == "317 MU"


def test_the_last_equation_comes_before_the_last_number():
    text = "We find D = 1.23 Gy.\nThe field is 10 cm wide."
    c = find_answer(text)
    assert c.source == "equation" and c.text.strip().startswith("1.23 Gy")


def test_an_equation_without_a_number_after_it_is_skipped():
    assert last_equation("D = 2.0 Gy\nso MU = D/D'") == " 2.0 Gy"


def test_the_last_number_takes_what_follows_it_on_its_line():
    c = find_answer("The output is 1.018 cGy/MU.")
    assert c.source == "last_number" and c.text == "1.018 cGy/MU."


def test_last_number_skips_exponents_subscripts_and_digit_groups():
    assert last_number(r"the output is 1.018 cGy MU^{-1}").text.startswith("1.018")
    assert last_number("dose 45 Gy_10").text.startswith("45")
    assert last_number("activity 17,273 MBq h").text.startswith("17,273")


def test_last_number_notes_a_range_that_leads_up_to_it():
    assert last_number("the dose is 1.2 to 1.3 Gy").joined
    assert not last_number("the dose is 1.3 Gy").joined


def test_no_number_no_candidate():
    assert find_answer("I cannot compute this.") is None
    assert find_answer("") is None


def test_searches_are_bounded_to_the_tail():
    text = "x = 5 Gy\n" + "." * (SEARCH_SPAN + 10)
    assert find_answer(text) is None
    text = r"\boxed{5 Gy}" + "." * (SEARCH_SPAN + 10)
    assert find_answer(text).text == "5 Gy"   # boxes are found anywhere in the graded text


def test_last_number_is_not_a_count_in_a_denominator():
    assert last_number("the output is 1.018 Gy/100 MU.").text.startswith("1.018")

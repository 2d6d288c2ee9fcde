"""PURE: cards, contracts, rule sets. No Flask, SQLAlchemy or WTForms here.

- ``cards``, ``contracts``: the deck and what a hand is played as;
- ``rulesets``: the variants, their rows and options, a circle's own rules (``RuleSet``);
- ``rules_input``: a rule set from outside (the API, a snapshot read back), every field checked;
- ``table``: who sits at an evening's table;
- ``hand_entry``: a hand as the slate records it; ``turns``: whose deal, who chooses;
- ``rule_facts``: the rules as one document for the pages and the offline phone;
- ``errors``: ``RuleError``, the message every layer shows in the user's language.
"""

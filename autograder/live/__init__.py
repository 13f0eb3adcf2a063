"""``autograder play``: a local web page where a person plays the submission's AI, or watches it
play the kit's opponents, in the same sandbox and under the same time limit as in grading."""

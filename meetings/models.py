"""Models of club meetups.

Empty for now: meetups arrive with their issue, together with their migrations.
"""

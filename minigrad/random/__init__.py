"""random"""
